"""scripts/build-site.sh on a fresh clone, as a teacher runs it, served as a web server serves it.

A fresh clone has no .venv: the script makes one and installs the `site` extra into it, which
must be all the build needs (scripts/build-site.py takes its links from build-lessons.py, which
reads the lesson sources with jupytext).  The folder it writes must be readable by every user:
a web server runs as a user of its own (www-data, nginx), and answers 404 to every page of a
folder only its builder can read.  Lesson 01 alone, without JupyterLite, keeps the build to a
minute or two.  Like tests/test_wheel_install.py it needs pip's index (or pip's cache), and
npm's registry (or npm's cache) for the pages' widget manager.
"""
import os
import pathlib
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from minigrad.lessons import LESSONS

from jupyter_helpers import free_port, fresh_clone, private_jupyter_environment

pytestmark = [pytest.mark.venv,
              pytest.mark.skipif(sys.platform == "win32", reason="build-site.sh is a bash script")]

LESSON = LESSONS[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the site, the clone, what build-site.sh printed): lesson 01, built in a fresh clone."""
    if shutil.which("npm") is None:
        pytest.skip("no npm: the site's widget manager comes from the npm registry "
                    "(apt-get install npm)")
    folder = tmp_path_factory.mktemp("clone")
    clone = fresh_clone(folder / "minigrad")
    assert (clone / "scripts" / "build-site.sh").is_file() and not (clone / ".venv").exists()
    public = pathlib.Path(tempfile.mkdtemp(prefix="minigrad-site-"))
    public.chmod(0o755)                  # where a web server's folder is: every user reaches it
    try:
        done = subprocess.run(
            ["bash", "scripts/build-site.sh", "--lessons", str(LESSON.number), "--skip-lite",
             str(public / "site")],
            cwd=clone, env=private_jupyter_environment(folder, PYTHON=sys.executable),
            capture_output=True, text=True, timeout=1500)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        yield public / "site", clone, done.stdout
    finally:
        shutil.rmtree(public, ignore_errors=True)


def test_a_fresh_clone_installs_what_the_site_needs_and_builds_it(built):
    site, clone, printed = built
    assert "Installing minigrad-tutor[site]" in printed
    assert (clone / ".venv" / "bin" / "python").exists()
    pages = sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))
    assert pages == ["en/01-tensors-and-the-graph.html", "en/index.html", "index.html",
                     "zh/01-tensors-and-the-graph.html", "zh/index.html"]


def test_every_file_of_the_site_is_readable_by_every_user(built):
    site = built[0]
    private = [path.relative_to(site.parent).as_posix() for path in [site, *site.rglob("*")]
               if path.stat().st_mode & (0o005 if path.is_dir() else 0o004)
               != (0o005 if path.is_dir() else 0o004)]
    assert not private, f"not readable by other users: {private[:10]}"


def run_as(user):
    """subprocess arguments that start a process as `user` (needs root)."""
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": [], "cwd": "/"}


def test_a_web_server_running_as_another_user_serves_every_file(built):
    """python -m http.server as `nobody`, as a real server runs: every file of the site, no 404."""
    site = built[0]
    if os.geteuid() != 0:
        pytest.skip("the tests run as a user who is not root: no other user to start the "
                    "server as (the mode of every file is checked above)")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user `nobody` to run the server as")
    python = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")
    if python is None or subprocess.run([python, "-c", "import http.server"],
                                        **run_as(nobody)).returncode:
        pytest.skip("no Python that the user `nobody` may run")
    port = free_port()
    server = subprocess.Popen([python, "-m", "http.server", "--bind", "127.0.0.1",
                               "--directory", str(site), str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              **run_as(nobody))
    try:
        files = [path.relative_to(site).as_posix() for path in sorted(site.rglob("*"))
                 if path.is_file()]
        assert len(files) > 10
        answers = {name: status(port, name, server) for name in ["", "en/", *files]}
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert {name: code for name, code in answers.items() if code != 200} == {}


def status(port, name, server, seconds=30):
    """The HTTP status of GET /name, waiting for the server to answer at first."""
    url = f"http://127.0.0.1:{port}/{urllib.parse.quote(name)}"
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.2)
