"""DrawLab dashboard (placeholder until the dashboard issue lands)."""
