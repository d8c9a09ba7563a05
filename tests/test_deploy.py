"""deploy/: the example HAProxy configuration is what paiju renders for its workers (so it
cannot drift) and HAProxy accepts it; the systemd unit passes `paiju serve` only flags it
has, from variables the example environment files set."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from paiju.cli import app, find_haproxy
from paiju.server.cluster.proxy_config import haproxy_config

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
EXAMPLE_WORKERS = [("w1", "10.0.0.11", 8000), ("w2", "10.0.0.12", 8000), ("w3", "10.0.0.13", 8000)]
EXAMPLE_BIND = ("0.0.0.0", 80)
DEBIAN_CONFIG = Path("/etc/haproxy/haproxy.cfg")  # its global section, kept in front of paiju's (deploy/README.md)


def _header_and_body(text: str) -> tuple[list[str], str]:
    header, sep, body = text.partition("\n\n")
    assert sep, "deploy/haproxy.cfg starts with a comment, then a blank line"
    lines = header.splitlines()
    assert all(line.startswith("#") for line in lines), lines
    return lines, body


def test_haproxy_cfg_is_what_paiju_renders() -> None:
    header, body = _header_and_body((DEPLOY / "haproxy.cfg").read_text(encoding="utf-8"))
    assert body == haproxy_config(EXAMPLE_WORKERS, bind=EXAMPLE_BIND), (
        "deploy/haproxy.cfg differs from haproxy_config's output: make it again with the command in its header"
    )
    assert "paiju cluster config" in header[0]


def test_haproxy_cfg_header_says_how_to_make_it_again() -> None:
    text = (DEPLOY / "haproxy.cfg").read_text(encoding="utf-8")
    header, _ = _header_and_body(text)
    commands = [line.lstrip("# ") for line in header if line.lstrip("# ").startswith("paiju cluster config ")]
    assert len(commands) == 1, header
    words = shlex.split(commands[0].partition(">")[0])
    r = CliRunner().invoke(app, words[1:])
    assert r.exit_code == 0, r.output
    assert r.stdout == text


def _haproxy_check(*configs: Path) -> None:
    haproxy = find_haproxy()
    if haproxy is None:
        pytest.skip("no haproxy program (Debian's haproxy package): HAProxy's own check of the configuration not run")
    argv = [haproxy, "-c"]
    for config in configs:
        argv += ["-f", str(config)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ALERT" not in r.stdout + r.stderr and "WARNING" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_haproxy_accepts_the_example() -> None:
    _haproxy_check(DEPLOY / "haproxy.cfg")


def test_haproxy_accepts_it_after_debians_own() -> None:
    if not DEBIAN_CONFIG.exists():
        pytest.skip(f"no {DEBIAN_CONFIG} (Debian's haproxy package not installed)")
    _haproxy_check(DEBIAN_CONFIG, DEPLOY / "haproxy.cfg")


# ---------------------------------------------------------------------------- systemd
def _unit() -> dict[str, list[str]]:
    """The unit's settings: name → values, in order (comments and sections left out)."""
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / "paiju-worker@.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        name, sep, value = line.partition("=")
        assert sep, f"not NAME=VALUE: {line!r}"
        settings.setdefault(name, []).append(value)
    return settings


def _env_file(name: str) -> dict[str, str]:
    """NAME=value lines of an example environment file; commented-out ones too (examples)."""
    out = {}
    for line in (DEPLOY / name).read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"#?([A-Z_][A-Z0-9_]*)=(.*)", line.strip())
        if m:
            out[m[1]] = m[2]
    return out


def _serve_flags() -> set[str]:
    group = typer.main.get_command(app)
    serve = group.commands["serve"]
    return {flag for p in serve.params for flag in (*p.opts, *p.secondary_opts) if flag.startswith("--")}


def test_unit_runs_paiju_serve_with_flags_it_has() -> None:
    unit = _unit()
    (exec_start,) = unit["ExecStart"]
    words = exec_start.split()
    assert words[0].endswith("/paiju") and words[1] == "serve", exec_start
    flags = _serve_flags()
    used = [w for w in words if w.startswith("--")]
    assert set(used) >= {"--host", "--port", "--db", "--redis", "--worker-id"}
    assert not [f for f in used if f not in flags], f"paiju serve has no such flags; it has {sorted(flags)}"
    assert words[words.index("--worker-id") + 1] == "%i", "the instance name is the worker's id"
    # the example of more flags (PAIJU_ARGS in cluster.env) names real ones too
    extra = _env_file("cluster.env.example").get("PAIJU_ARGS", "")
    assert not [w for w in extra.split() if w.startswith("--") and w not in flags], extra


def test_unit_variables_come_from_its_environment_files() -> None:
    unit = _unit()
    assert unit["EnvironmentFile"] == ["/etc/paiju/cluster.env", "/etc/paiju/worker-%i.env"]
    shared, own = _env_file("cluster.env.example"), _env_file("worker-w1.env.example")
    used = set(re.findall(r"\$\{?([A-Z_][A-Z0-9_]*)", unit["ExecStart"][0]))
    assert used == {"PAIJU_PORT", "PAIJU_DB", "PAIJU_REDIS", "PAIJU_ARGS", "PAIJU_METRICS_HOST", "PAIJU_METRICS_PORT"}
    assert set(own) == {"PAIJU_PORT", "PAIJU_METRICS_HOST", "PAIJU_METRICS_PORT"} and own["PAIJU_PORT"].isdigit()
    assert own["PAIJU_METRICS_PORT"].isdigit() and own["PAIJU_METRICS_PORT"] != own["PAIJU_PORT"]
    assert {"PAIJU_DB", "PAIJU_REDIS", "PAIJU_ARGS", "FORWARDED_ALLOW_IPS"} <= set(shared)
    assert shared["PAIJU_DB"].startswith("postgresql://") and shared["PAIJU_REDIS"].startswith("redis://")
    assert ":" not in shared["PAIJU_DB"].partition("://")[2].partition("@")[0], "no password on the command line"


def test_unit_restarts_stops_gently_and_is_confined() -> None:
    unit = _unit()
    expected = {
        "Restart": "always",
        "RestartSec": "1",
        "KillSignal": "SIGTERM",
        "TimeoutStopSec": "15",
        "LimitNOFILE": "65536",
        "User": "paiju",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "WorkingDirectory": "/var/lib/paiju",
        "StateDirectory": "paiju",  # the working directory, writable under ProtectSystem=strict
    }
    assert {name: unit.get(name, [None])[-1] for name in expected} == expected


def test_log_keeps_debians_request_log_for_paijus_sections(tmp_path: Path) -> None:
    """paiju's ``defaults`` section replaces Debian's for the sections after it, with its
    ``log global`` and ``option httplog``: ``--log`` puts them back in paiju's own, and
    HAProxy accepts the pair of files without a warning (a log address is in Debian's
    ``global``)."""
    r = CliRunner().invoke(app, ["cluster", "config", "-w", "w1=127.0.0.1:8101", "--log"])
    assert r.exit_code == 0, r.output
    defaults = r.output.partition("\ndefaults\n")[2].partition("\n\n")[0].splitlines()
    assert defaults[:3] == ["    log global", "    option httplog", "    option dontlognull"], defaults
    plain = haproxy_config([("w1", "127.0.0.1", 8101)], bind=("0.0.0.0", 8000))
    assert "log global" not in plain and "httplog" not in plain  # alone (cluster up): no log address
    if not DEBIAN_CONFIG.exists():
        pytest.skip(f"no {DEBIAN_CONFIG} (Debian's haproxy package not installed)")
    cfg = tmp_path / "paiju.cfg"
    cfg.write_text(r.output, encoding="utf-8")
    _haproxy_check(DEBIAN_CONFIG, cfg)
