"""requirements.txt as Streamlit Community Cloud resolves it: with uv and uv's defaults.

A stand-in for PyTorch's CPU index is served on loopback with what the real one is documented to
serve (pytorch/test-infra#6900, uv#12620): the torch 2.13.0 CPU wheel (this machine's), a markupsafe
with only a cp313 wheel, and an old numpy. PyPI is the normal index.

- The old recipe (``--extra-index-url`` the torch index) resolves badly under uv's first-index
  strategy: the stand-in's numpy and markupsafe shadow PyPI's. That is the trap, reproduced.
- requirements.txt, pointed at the stand-in, gives torch 2.13.0+cpu from the stand-in's address and
  every other package from PyPI.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.deploy.support import ROOT, TORCH_CPU_URL, TORCH_WHEEL, pypi_reachable, serve_folder

pytestmark = pytest.mark.slow

PYPI = "https://pypi.org/simple"
UV = Path(sys.executable).with_name("uv")
# Community Cloud's machines: Linux on x86_64; the Python version the README names.
TARGET = ["--python-version", "3.11", "--python-platform", "x86_64-manylinux_2_28"]


def _fake_wheel(folder: Path, name: str, version: str, tag: str, requires_python: str) -> str:
    """A wheel with metadata only: enough for a resolver, which is all the stand-in needs."""
    filename = f"{name}-{version}-{tag}.whl"
    info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(folder / filename, "w") as whl:
        whl.writestr(
            f"{info}/METADATA",
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: {requires_python}\n",
        )
        whl.writestr(f"{info}/WHEEL", f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n")
        whl.writestr(f"{info}/RECORD", "")
    return filename


def _index_page(folder: Path, project: str, links: list[str]) -> None:
    page = folder / "simple" / project
    page.mkdir(parents=True, exist_ok=True)
    anchors = "".join(f'<a href="{href}">{href.rsplit("/", 1)[-1]}</a>\n' for href in links)
    (page / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{anchors}</body></html>\n")


@pytest.fixture(scope="module")
def standin(tmp_path_factory, torch_wheel):
    """The stand-in index on loopback: ``{base}simple/`` (PEP 503) and the wheels under ``whl/cpu/``."""
    if not pypi_reachable():
        pytest.skip("PyPI is out of reach: uv resolves the rest of requirements.txt there")
    root = tmp_path_factory.mktemp("torch-index")
    wheels = root / "whl" / "cpu"
    wheels.mkdir(parents=True)
    (wheels / TORCH_WHEEL).symlink_to(torch_wheel)
    numpy = _fake_wheel(wheels, "numpy", "1.26.4", "cp311-cp311-manylinux_2_17_x86_64", ">=3.9")
    markupsafe = _fake_wheel(wheels, "markupsafe", "3.0.3", "cp313-cp313-manylinux_2_17_x86_64", ">=3.9")
    _index_page(root, "torch", [f"../../whl/cpu/{TORCH_WHEEL.replace('+', '%2B')}"])
    _index_page(root, "numpy", [f"../../whl/cpu/{numpy}"])
    _index_page(root, "markupsafe", [f"../../whl/cpu/{markupsafe}"])
    served = serve_folder(root)
    yield next(served)
    served.close()


@pytest.fixture(scope="module")
def uv_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("uv-cache")


def _compile(requirements: str, folder: Path, cache: Path) -> subprocess.CompletedProcess:
    """``uv pip compile`` with uv's defaults (no config file, no UV_* setting): PyPI the default index."""
    req = folder / "requirements.txt"
    req.write_text(requirements)
    env = {k: v for k, v in os.environ.items() if not k.startswith("UV_")}
    env["SSL_CERT_FILE"] = env.get("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt")
    cmd = [str(UV), "pip", "compile", str(req), *TARGET, "--no-config", "--cache-dir", str(cache)]
    cmd += ["--emit-index-annotation", "--no-header"]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=folder, env=env, timeout=300)


def _sources(lock: str) -> dict[str, str]:
    """Each pinned package of uv's output and where it comes from (its index, or its address)."""
    sources, current = {}, None
    for line in lock.splitlines():
        if m := re.match(r"^([A-Za-z0-9_.\-]+) @ (\S+)", line):
            current = m.group(1).lower()
            sources[current] = m.group(2)
        elif m := re.match(r"^([A-Za-z0-9_.\-]+)==\S+", line):
            current = m.group(1).lower()
        elif current and (m := re.match(r"^\s+# from (\S+)", line)):
            sources.setdefault(current, m.group(1))
    return sources


def _versions(lock: str) -> dict[str, str]:
    return {m.group(1).lower(): m.group(2) for m in re.finditer(r"(?m)^([A-Za-z0-9_.\-]+)==(\S+)", lock)}


def test_the_old_extra_index_recipe_takes_numpy_or_markupsafe_from_the_torch_index(
    standin, uv_cache, tmp_path
):
    """The negative control: the stand-in reproduces the trap, so the next test's pass means something."""
    old = (ROOT / "requirements-local.txt").read_text()
    result = _compile(f"--extra-index-url {standin}simple\n{old}", tmp_path, uv_cache)
    if result.returncode == 0:  # it resolved, but numpy or markupsafe came from the torch index
        sources = _sources(result.stdout)
        assert standin in sources["numpy"] + sources["markupsafe"], result.stdout
    else:  # the stand-in's old numpy (or cp313-only markupsafe) shadowed PyPI's: no solution
        assert "No solution found" in result.stderr, result.stderr
        assert re.search(rf"`(numpy|markupsafe)` was found on {re.escape(standin)}simple", result.stderr)


def test_requirements_txt_takes_torch_cpu_from_its_address_and_the_rest_from_pypi(
    standin, uv_cache, tmp_path
):
    text = (ROOT / "requirements.txt").read_text()
    assert "--extra-index-url" not in text and "--index-url" not in text
    result = _compile(text.replace(TORCH_CPU_URL, f"{standin}whl/cpu/"), tmp_path, uv_cache)
    assert result.returncode == 0, result.stderr
    sources = _sources(result.stdout)
    assert sources.pop("torch") == f"{standin}whl/cpu/{TORCH_WHEEL.replace('+', '%2B')}"
    assert {"numpy", "markupsafe", "jinja2", "streamlit", "pandas"} <= set(sources)
    elsewhere = {name: src for name, src in sources.items() if src.rstrip("/") != PYPI}
    assert elsewhere == {}, result.stdout
    versions = _versions(result.stdout)
    assert versions["numpy"] != "1.26.4" and int(versions["jinja2"].split(".")[0]) >= 3
