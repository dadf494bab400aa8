"""Untrusted text made inert for Streamlit's Markdown.

Player names, table names and file names come from files anyone can write.  Where such
text must sit inside Markdown (a caption, a widget label), every ASCII punctuation
character is backslash-escaped, which CommonMark defines as "show this character", so
``[x](https://evil.example/)`` stays brackets and parentheses, ``<script>`` stays angle
brackets, ``:red[x]`` stays a colon, and ``$x$`` is not LaTeX.  Elsewhere pages show such
text with ``st.text``, ``st.code`` or ``st.dataframe``, which render no Markdown at all.
"""

from __future__ import annotations

import string

_PUNCT = frozenset(string.punctuation)


def md(text: object) -> str:
    """``text`` as Markdown that displays exactly those characters, on one line."""
    out: list[str] = []
    for ch in str(text):
        if ch in _PUNCT:
            out.append("\\" + ch)
        elif ch in "\r\n\t\v\f":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)
