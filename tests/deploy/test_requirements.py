"""requirements.txt (Community Cloud, the Dockerfile) and requirements-local.txt (make, CI) agree."""

from __future__ import annotations

import re

import pytest
from packaging.requirements import Requirement

from tests.deploy.support import ROOT, TORCH_CPU_URL


def _requirements(name: str) -> list[Requirement]:
    lines = (ROOT / name).read_text().splitlines()
    return [Requirement(line.split("  #")[0]) for line in lines if line.strip() and not line.startswith("#")]


def _environment(python: str, machine: str, platform: str = "linux") -> dict[str, str]:
    return {"python_version": python, "platform_machine": machine, "sys_platform": platform}


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13", "3.14"])
@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_linux_gets_exactly_one_torch_the_cpu_wheel_for_its_python_and_machine(python, machine):
    applies = [
        r
        for r in _requirements("requirements.txt")
        if r.name == "torch" and r.marker.evaluate(_environment(python, machine))
    ]
    assert len(applies) == 1
    cp = "cp" + python.replace(".", "")
    assert applies[0].url == f"{TORCH_CPU_URL}torch-2.13.0%2Bcpu-{cp}-{cp}-manylinux_2_28_{machine}.whl"


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_macos_and_windows_take_torch_2_13_0_by_version(platform):
    applies = [
        r
        for r in _requirements("requirements.txt")
        if r.name == "torch" and r.marker.evaluate(_environment("3.11", "arm64", platform))
    ]
    assert [str(r.specifier) for r in applies] == ["==2.13.0"]


def test_the_local_file_pins_what_the_cloud_file_pins_with_torch_by_version():
    cloud = {r.name: str(r.specifier) for r in _requirements("requirements.txt") if r.name != "torch"}
    local = {r.name: str(r.specifier) for r in _requirements("requirements-local.txt")}
    assert local.pop("torch") == "==2.13.0"
    assert local == cloud


def test_no_requirements_file_names_an_index():
    for path in ROOT.glob("requirements*.txt"):
        assert not re.search(r"(?m)^\s*--(extra-)?index-url", path.read_text()), path.name
