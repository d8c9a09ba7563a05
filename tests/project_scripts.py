"""Loading a script of the project (a benchmark, an example, a migration) as a module, for
the tests that run it: it is not a package, so it is loaded from its file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The module of the script at ``path`` (registered under ``name``: dataclasses look
    their module up by name)."""
    spec = importlib.util.spec_from_file_location(name or f"{path.stem}_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
