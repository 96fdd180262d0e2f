"""The JupyterLab already running on a lesson workspace: where it is, and what it has open.

The launcher holds the workspace's lock while its JupyterLab runs (workspace.lock);
Jupyter itself keeps a record of each running server (its address and token).  A
second launch uses them to say where the running one is, and `--reset` to ask the
running one which lessons it has open (JupyterLab's sessions: a tab with its kernel).
"""
import json
import os
import pathlib
import urllib.request

from minigrad.tutor import workspace


def has_open(folder, notebook):
    """Whether the JupyterLab running on `folder` has `notebook` open (a tab with its
    kernel: JupyterLab's sessions).  Resetting a lesson under an open tab made JupyterLab
    ask, at its next save, whether to overwrite the lesson with the tab's copy."""
    if not pathlib.Path(folder).is_dir():           # no workspace yet: nothing runs there
        return False
    try:
        lock = workspace.lock(folder)
    except workspace.WorkspaceError as error:
        if error.key != "already_running":
            raise
        found = server(folder, error.values["pid"])
    else:
        os.close(lock)                    # nothing runs there
        return False
    if found is None:
        return False
    request = urllib.request.Request(found["url"].rstrip("/") + "/api/sessions",
                                     headers={"Authorization": f"token {found.get('token', '')}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            sessions = json.loads(answer.read())
    except (OSError, ValueError):         # no answer: say nothing rather than guess
        return False
    wanted = pathlib.Path(notebook).resolve().relative_to(pathlib.Path(folder).resolve())
    return any(pathlib.PurePosixPath(session.get("path", "")) == pathlib.PurePosixPath(
        wanted.as_posix()) for session in sessions)


def server(folder, pid):
    """The JupyterLab serving `folder` (Jupyter's own record of it: url, token, pid...),
    found by the pid that holds the workspace's lock or by its root; None if not listed."""
    try:        # jupyter_server comes with the tutor extra, and JupyterLab: imported when asked
        from jupyter_server.serverapp import list_running_servers
        servers = list(list_running_servers())
    except Exception:       # noqa: BLE001 — no list: the process id still tells where to look
        servers = []
    root = pathlib.Path(folder).resolve()
    for running in servers:
        if str(running.get("pid")) == pid or pathlib.Path(running.get("root_dir", "")) == root:
            return running
    return None


def url(running, path):
    """The address of `path` on a running server, with its token."""
    token = running.get("token")
    return running["url"].rstrip("/") + path + (f"?token={token}" if token else "")
