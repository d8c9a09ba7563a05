"""The one exception players see."""


class IllegalAction(ValueError):
    """An action, a play or a piece of card text that the rules do not allow.

    The message is a sentence a player understands ("8888 does not beat SJ 777: each
    card must beat the card it faces"). A game that raises it is left unchanged.
    """
