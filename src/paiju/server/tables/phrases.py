"""Quick phrases 快捷语 and emotes a player sends to the table, and the rule for free text.

A phrase is a key; each client shows it in its own language (the browser's i18n table),
so the hall never sends a sentence of one language to a player of another. Free text is
a room option (``chat``, off by default) and short.
"""

from __future__ import annotations

PHRASES = (
    "hurry",
    "nice",
    "sorry",
    "thanks",
    "again",
    "bye",
    "well_played",
    "oops",
    "emote_smile",
    "emote_cry",
    "emote_angry",
    "emote_thumbs",
)
MAX_SAY = 60  # characters of a free text line, once trimmed
