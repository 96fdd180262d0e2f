"""A release as docs/release.md makes it: `python -m build` on a fresh clone (an sdist, then a
wheel built from it) and `twine check --strict` on both, and the workflow that publishes them
from the repository's CI as a trusted publisher.

The build runs in isolated environments, as a release's does, so it needs pip's index (or
pip's cache), like tests/test_wheel_install.py.
"""
import os
import pathlib
import subprocess
import sys
import tarfile
import zipfile

import pytest
import yaml

from test_lessons import builder
from test_wheel_install import SHIPPED

from jupyter_helpers import fresh_clone

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
VERSION = builder.pyproject()["project"]["version"]


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """dist/ of `python -m build` in a fresh clone: the sdist and the wheel built from it."""
    folder = tmp_path_factory.mktemp("release")
    clone = fresh_clone(folder / "minigrad")
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(folder / "dist"),
                            str(clone)], capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return folder / "dist"


@pytest.mark.venv
def test_the_sdist_and_the_wheel_pass_twine_check(dist):
    files = sorted(dist.iterdir())
    assert [path.name for path in files] == [f"minigrad_tutor-{VERSION}-py3-none-any.whl",
                                             f"minigrad_tutor-{VERSION}.tar.gz"]
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                              *map(str, files)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout


@pytest.mark.venv
def test_the_wheel_built_from_the_sdist_holds_every_lesson(dist):
    wheel = zipfile.ZipFile(dist / f"minigrad_tutor-{VERSION}-py3-none-any.whl")
    names = wheel.namelist()
    assert sorted(name.removeprefix("minigrad/lessons/") for name in names
                  if name.endswith(".ipynb")) == SHIPPED
    metadata = wheel.read(f"minigrad_tutor-{VERSION}.dist-info/METADATA").decode()
    assert "\nName: minigrad-tutor\n" in metadata and f"\nVersion: {VERSION}\n" in metadata
    assert "\nDescription-Content-Type: text/markdown\n" in metadata
    assert "**PyTorch's autograd, small enough to read.**" in metadata      # the README
    with tarfile.open(dist / f"minigrad_tutor-{VERSION}.tar.gz") as sdist:
        inside = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"pyproject.toml", "setup.py", "README.md", "LICENSE", "CHANGELOG.md",
            "minigrad/__init__.py"} <= inside
    assert {f"notebooks/{name}" for name in SHIPPED} <= inside
    assert not [name for name in inside if name.startswith(("build/", ".venv/", "tests/"))]


def release_workflow():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))      # YAML 1.1 reads `on` as true
    return workflow


def test_the_workflow_builds_checks_and_publishes_as_a_trusted_publisher():
    workflow = release_workflow()
    assert workflow["on"] == {"release": {"types": ["published"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    runs = [step.get("run", "").strip() for step in build["steps"]]
    assert runs.index("python -m build") < runs.index("python -m twine check --strict dist/*")
    assert publish["needs"] == "build" and publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}       # the only job PyPI trusts
    assert publish["steps"][-1]["uses"] == "pypa/gh-action-pypi-publish@release/v1"
    assert "with" not in publish["steps"][-1]                    # no token, no other index


@pytest.mark.parametrize("tag, passes", [(f"v{VERSION}", True), ("v0.0.0-not-this-one", False)])
def test_the_workflow_refuses_a_tag_that_is_not_the_version(tag, passes):
    """The step that compares the release's tag with pyproject.toml, run as the workflow runs it."""
    [step] = [step for step in release_workflow()["jobs"]["build"]["steps"]
              if "TAG" in step.get("env", {})]
    environment = {**os.environ, "TAG": tag,
                   "PATH": f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=ROOT, env=environment,
                          capture_output=True, text=True)
    assert (done.returncode == 0) == passes, done.stderr


def test_the_release_procedure_names_what_it_uses():
    text = (ROOT / "docs" / "release.md").read_text(encoding="utf-8")
    for named in (".github/workflows/release.yml", "CHANGELOG.md", "python -m build",
                  "twine check --strict", "on-pypi = true", "pypa/gh-action-pypi-publish"):
        assert named in text, named
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog\n")
    assert "on-pypi" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
