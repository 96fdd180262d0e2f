"""Shared fixtures: the devices the engine runs on.

`device` runs a test three times: on "cpu"; on "cuda" backed by tests/fake_cupy.py (numpy
dressed as CuPy, so every machine tests the device logic); and on "cuda" with the real
CuPy, skipped where there is no GPU.
"""
import fake_cupy
import pytest

from minigrad import backend

# The real programs are scripts that tests/test_real_programs.py runs one process per library
# (import torch is minigrad there): --doctest-modules must not import them as modules here.
collect_ignore_glob = ["differential/real_programs/*.py"]

# The whole suite runs in two processes, each test file whole in one (scripts/run-tests.sh):
# the longest files start first, so that none of them is left running alone at the end.
LONGEST_FIRST = ["test_grading_attacks.py", "browser/test_lite.py", "browser/test_player_pages.py",
                 "test_site_from_a_clone.py", "test_nbgrader.py", "test_binder.py",
                 "test_wheel_install.py", "test_lessons.py", "browser/test_tutor_sessions.py",
                 "test_exercise_trials.py"]


# A browser test drives JupyterLab, Chromium and a kernel on a machine whose two cores the
# other process also uses: one that fails is run once more (pytest prints it as R, rerun),
# and fails the suite only if it fails again.
BROWSER_RERUNS = 1


def pytest_collection_modifyitems(items):
    for item in items:
        if "/tests/browser/" in item.path.as_posix():
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS, reruns_delay=5))

    def rank(item):
        path = item.path.as_posix()
        return next((k for k, name in enumerate(LONGEST_FIRST) if path.endswith("/tests/" + name)),
                    len(LONGEST_FIRST))
    items.sort(key=rank)        # a stable sort: within a file, and for the rest, the same order


NO_REAL_CUDA = ('CuPy with a CUDA GPU is not available (pip install "minigrad-tutor[cuda]" on a '
                'GPU machine)')


@pytest.fixture
def fake_cuda(monkeypatch):
    """minigrad's CuPy replaced by the numpy-backed fake for this test; returns the fake."""
    fake_cupy.reset()
    monkeypatch.setattr(backend, "_cupy", fake_cupy)
    monkeypatch.setattr(backend, "_cupyx", fake_cupy.cupyx)
    return fake_cupy


@pytest.fixture
def real_cuda():
    """Skip unless CuPy and a GPU are really there."""
    if not backend.cuda_is_available():
        pytest.skip(NO_REAL_CUDA)


@pytest.fixture(params=["cpu", "fake-cuda", "cuda"])
def device(request):
    """The device a test runs on: "cpu" or "cuda" (fake or real)."""
    if request.param == "fake-cuda":
        request.getfixturevalue("fake_cuda")
        return "cuda"
    if request.param == "cuda":
        request.getfixturevalue("real_cuda")
    return request.param
