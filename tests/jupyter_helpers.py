"""Helpers for the tests that install minigrad into fresh virtual environments and start Jupyter.

Used by test_tutor.py, test_wheel_install.py, test_binder.py, test_site_from_a_clone.py and
test_release.py.  Everything Jupyter writes (runtime files, config, kernelspecs) goes to a
private folder, so a user's own Jupyter set-up can neither break nor be touched by the tests.
"""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
import venv

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOKEN = "minigrad-test-token"


def copy_project(destination):
    """What a fresh clone needs to build and install minigrad, copied to `destination`.

    Building from a copy keeps build/ and *.egg-info out of the working tree
    (other runs may be using it at the same time).
    """
    destination = pathlib.Path(destination)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "minigrad", destination / "minigrad", ignore=ignore)
    shutil.copytree(ROOT / "binder", destination / "binder", ignore=ignore)
    shutil.copytree(ROOT / "notebooks", destination / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, destination / name)
    return destination


def fresh_clone(destination):
    """The working tree as a clone of it holds it, copied to `destination`: every file git
    tracks or would add, none it ignores (.venv, build/, *.egg-info).  Without git: the tree
    less those folders."""
    destination = pathlib.Path(destination)
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, destination, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "minigrad-lessons"))
        return destination
    for name in filter(None, listed):
        if (ROOT / name).is_file():                  # a tracked file deleted since is not there
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination


def make_venv(folder):
    """A new virtual environment with pip; returns its python."""
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    return pathlib.Path(folder) / ("Scripts" if os.name == "nt" else "bin") / "python"


def pip_install(python, *arguments, cwd=None):
    """pip install into `python`'s environment (pip's cache is used: no --no-cache-dir)."""
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *arguments],
                   check=True, cwd=cwd, env=private_jupyter_environment(pathlib.Path(python).parents[1]))


def private_jupyter_environment(folder, **extra):
    """os.environ with Jupyter's folders moved under `folder` and the minigrad variables unset."""
    folder = pathlib.Path(folder)
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("JUPYTER_PATH", "MINIGRAD_LANG", "MINIGRAD_WORKSPACE",
                                  "PYTHONPATH", "VIRTUAL_ENV")}
    environment.update(JUPYTER_RUNTIME_DIR=str(folder / "jupyter" / "runtime"),
                       JUPYTER_CONFIG_DIR=str(folder / "jupyter" / "config"),
                       JUPYTER_DATA_DIR=str(folder / "jupyter" / "data"),
                       JUPYTERLAB_WORKSPACES_DIR=str(folder / "jupyter" / "lab-workspaces"),
                       JUPYTER_TOKEN=TOKEN, **extra)
    return environment


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_tutor(command, folder, port, cwd=None):
    """Start a launcher command with --dir folder/lessons --no-browser --port `port`."""
    return subprocess.Popen(
        [*map(str, command), "--dir", str(pathlib.Path(folder) / "lessons"), "--no-browser",
         "--port", str(port)],
        env=private_jupyter_environment(folder), cwd=cwd or folder,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        # Ctrl+C must reach it as in a terminal, also when the tests themselves were started
        # in the background (`pytest &`), where the shell makes every child ignore SIGINT.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def get(port, path):
    """GET http://127.0.0.1:port/path with the test token; returns the body (bytes)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.read()


def wait_for_jupyterlab(port, process, seconds=120):
    """Poll /api/status until JupyterLab answers; fails if the process dies or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"JupyterLab exited early:\n{process.stdout.read()}")
        try:
            return json.loads(get(port, "/api/status"))
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"JupyterLab did not answer on port {port} in {seconds} s")


def stop(process, sig=signal.SIGTERM, seconds=30):
    """Send `sig`, wait for the process to exit; returns everything it printed."""
    if process.poll() is None:
        process.send_signal(sig)
    try:
        output, _ = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"still running {seconds} s after signal {sig}:\n{output}")
    return output


def run_python(python, code, **kwargs):
    """Run `code` with `python`; returns its stdout (raises with stderr shown on failure)."""
    result = subprocess.run([str(python), "-c", code], capture_output=True, text=True, **kwargs)
    if result.returncode:
        raise AssertionError(f"{code!r} failed:\n{result.stderr}")
    return result.stdout

