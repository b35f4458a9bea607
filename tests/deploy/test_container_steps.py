"""The Dockerfile's steps, run here in a fresh venv (this machine has a Docker client but no engine).

Its instructions are read from the Dockerfile itself: the ENV settings, the COPY set, every
``RUN pip install`` and ``RUN python`` line (the user is made by ``useradd``, which a venv skips), and
the CMD, started on a free loopback port and polled with the HEALTHCHECK's own command. The one
change: torch's CPU wheel comes from this machine's disk instead of its address.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.deploy.support import ROOT, TORCH_CPU_URL, TORCH_WHEEL, free_port, pypi_reachable

DOCKERFILE = ROOT / "Dockerfile"
PORT = "8501"  # the Dockerfile's, replaced by a free port here
START_SECONDS = 120.0  # a cold start of the app on a loaded 2-core machine


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) for each instruction, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _one(name: str) -> str:
    found = [args for word, args in instructions() if word == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def test_the_image_is_slim_python_of_the_version_ci_tests_and_runs_as_a_user():
    base = _one("FROM")
    assert re.fullmatch(r"python:(\d+\.\d+)-slim(-\w+)?", base), base
    assert base.split(":")[1].startswith(f"{sys.version_info.major}.{sys.version_info.minor}-")
    assert _one("USER") not in ("root", "0")
    assert "/_stcore/health" in _one("HEALTHCHECK")
    assert json.loads(_one("CMD"))[:3] == ["streamlit", "run", "streamlit_app.py"]


def test_every_copied_path_is_let_through_by_dockerignore():
    allowed = {
        line[1:].rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    sources = {shlex.split(args)[0].rstrip("/") for word, args in instructions() if word == "COPY"}
    assert sources == allowed


def _health(health_cmd: list[str], env: dict[str, str]) -> bool:
    return subprocess.run(health_cmd, env=env, capture_output=True, timeout=30).returncode == 0


@pytest.mark.slow
def test_the_dockerfile_steps_install_and_serve_a_healthy_app(tmp_path, torch_wheel):
    if not pypi_reachable():
        pytest.skip("PyPI is out of reach: the Dockerfile's pip install needs it")
    app, venv = tmp_path / "app", tmp_path / "venv"
    app.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    tools = {"pip": [str(venv / "bin" / "python"), "-m", "pip"], "python": [str(venv / "bin" / "python")]}
    port = str(free_port())
    health_cmd = None
    for word, args in instructions():
        if word == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(args)))
        elif word == "COPY":
            source, dest = shlex.split(args)
            target = app / dest
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / source, target if dest != "./" else app / source)
            if source == "requirements.txt":  # the one change: torch's wheel from this disk
                req = app / "requirements.txt"
                address = f"{TORCH_CPU_URL}{TORCH_WHEEL.replace('+', '%2B')}"
                assert address in req.read_text()
                req.write_text(req.read_text().replace(address, torch_wheel.as_uri()))
        elif word == "RUN":
            argv = shlex.split(args)
            if argv[0] in ("useradd", "groupadd"):
                continue  # the image's user; a venv runs as whoever runs the test
            assert argv[0] in tools, f"a RUN step this test cannot replay: {args}"
            result = subprocess.run(
                tools[argv[0]] + argv[1:], cwd=app, env=env, capture_output=True, text=True, timeout=600
            )
            assert result.returncode == 0, f"RUN {args}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
        elif word == "HEALTHCHECK":
            command = args[args.index("CMD ") + 4 :].replace(PORT, port)
            argv = shlex.split(command)
            health_cmd = tools[argv[0]] + argv[1:]
    assert health_cmd is not None
    cmd = [a.replace(PORT, port).replace("0.0.0.0", "127.0.0.1") for a in json.loads(_one("CMD"))]
    server = subprocess.Popen(
        [str(venv / "bin" / cmd[0]), *cmd[1:]],
        cwd=app,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _health(health_cmd, env):
            assert server.poll() is None, server.stdout.read()
            assert time.monotonic() < deadline, "no healthy answer from /_stcore/health"
            time.sleep(1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200 and b'id="root"' in page.read()
        torch_version = subprocess.run(
            [*tools["python"], "-c", "import torch; print(torch.__version__)"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        ).stdout.strip()
        assert torch_version == "2.13.0+cpu"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
