"""``python -m paiju.cli``: the command line, as the ``paiju`` script runs it."""

from paiju.cli import app

if __name__ == "__main__":  # pragma: no cover
    app()
