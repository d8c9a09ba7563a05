"""The one exception players see, and the catalogue of its reasons.

Every :class:`IllegalAction` carries three things:

- its text, a sentence a player understands ("8888 does not beat SJ 777: each card must
  beat the card it faces") — ``str(e)``, unchanged since the first release;
- a stable reason ``code`` (``does_not_beat``, ``wrong_count``, ``not_your_turn`` …), the
  key a client translates — the hall's page has a Chinese and an English sentence for
  every code in :data:`REASONS`;
- the reason's ``params``, JSON values the translated sentence is filled with (cards as
  card text: ``{"play": "8888", "beaten": "SJ 777"}``).

>>> e = IllegalAction("8888 does not beat SJ 777", code="does_not_beat", play="8888", beaten="SJ 777")
>>> e.code, e.params
('does_not_beat', {'play': '8888', 'beaten': 'SJ 777'})
>>> IllegalAction("no").code
'illegal'
"""

from __future__ import annotations

from typing import Any

#: reason code -> an English template of the sentence, with ``{param}`` places; a client
#: shows its own language's sentence for the code and falls back to the text.
REASONS: dict[str, str] = {
    "illegal": "that is not allowed here",
}


def reasons(**codes: str) -> None:
    """Add reason codes to the catalogue (each module names the codes it raises)."""
    for code, template in codes.items():
        known = REASONS.get(code)
        if known is not None and known != template:
            raise ValueError(f"reason code {code!r} is already defined as {known!r}")
        REASONS[code] = template


class IllegalAction(ValueError):
    """An action, a play or a piece of card text that the rules do not allow.

    The message is a sentence a player understands; ``code`` and ``params`` say the same
    for a program (see the module doc). A game that raises it is left unchanged.
    """

    def __init__(self, message: str = "", code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        if code not in REASONS:
            raise ValueError(f"unknown reason code {code!r}: add it to paiju.errors.REASONS")
        self.code = code
        self.params = params

    def __reduce__(self) -> Any:  # picklable with its code and params (tournaments use processes)
        return _rebuild, (type(self), str(self), self.code, self.params)


def _rebuild(cls: type[IllegalAction], message: str, code: str, params: dict[str, Any]) -> IllegalAction:
    e = cls.__new__(cls)
    ValueError.__init__(e, message)
    e.code, e.params = code, params
    return e
