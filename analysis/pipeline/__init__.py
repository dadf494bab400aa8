"""The import pipeline: one hand text's verdict (``verification``), files verified in one
process or on every core (``verify_files``, ``workers``), the import into the store
(``importer``), stored texts replayed again (``reverify``), a folder watched (``watch``),
and the reports of imports and verifications (``import_report``, ``verify_report``)."""
