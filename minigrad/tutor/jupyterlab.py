"""JupyterLab as the tutor starts it: the command, its environment (the lessons' language
and workspace reach the kernels), and the settings it is given (no news pop-up over a
widget, its menus in the lessons' language, the open tabs of each language apart).

# NOTE [one JupyterLab layout per language]
# JupyterLab reopens the tabs of its last session (its "workspace", a layout kept in
# JUPYTERLAB_WORKSPACES_DIR) and starts a kernel for each notebook among them.  With
# one layout for both languages, a student who switched to Chinese found every
# English tab back next to the Chinese ones of the same names, each with its kernel.
# So each language opens its own layout, /lab/workspaces/minigrad-<lang>/..., kept in
# the lesson workspace (.jupyterlab-workspaces); switching back brings that
# language's tabs back.
"""
import os
import pathlib
import sys

from minigrad.tutor import workspace


def lab_url(lang, notebook):
    """The path, on the server, of `notebook` (relative to the lesson workspace) opened in
    the JupyterLab layout of `lang` (see the NOTE above)."""
    return f"/lab/workspaces/minigrad-{lang}/tree/{pathlib.PurePath(notebook).as_posix()}"


def jupyter_command(folder, notebook, lang, port=None, open_browser=True):
    """The command that starts JupyterLab in `folder` with `notebook` open."""
    relative = pathlib.Path(notebook).resolve().relative_to(pathlib.Path(folder).resolve())
    command = [sys.executable, "-m", "jupyterlab",
               f"--ServerApp.root_dir={pathlib.Path(folder).resolve()}",
               f"--LabApp.default_url={lab_url(lang, relative)}",
               # a lesson needs no news feed or update check (nor their pop-up over a widget)
               "--LabApp.news_url=None",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if port:
        command += [f"--ServerApp.port={port}", "--ServerApp.port_retries=0"]
    if not open_browser:
        command.append("--ServerApp.open_browser=False")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--ServerApp.allow_root=True")      # containers (Docker, CI) run as root
    return command


def jupyter_environment(folder, lang, environ=None):
    """JupyterLab's environment: kernels inherit the language and the workspace (for progress).

    Unless the student chose a JupyterLab settings folder, the workspace keeps its own
    (`.jupyterlab-settings`, see `seed_lab_settings`), so the lessons open without a pop-up;
    and so for the layouts of its open tabs (`.jupyterlab-workspaces`).
    """
    environ = os.environ if environ is None else environ
    settings = environ.get("JUPYTERLAB_SETTINGS_DIR") or str(lab_settings_dir(folder))
    layouts = environ.get("JUPYTERLAB_WORKSPACES_DIR") or str(
        pathlib.Path(folder).resolve() / ".jupyterlab-workspaces")
    return {**environ, "JUPYTERLAB_SETTINGS_DIR": settings, "JUPYTERLAB_WORKSPACES_DIR": layouts,
            "MINIGRAD_LANG": lang, "MINIGRAD_WORKSPACE": str(pathlib.Path(folder).resolve())}


def lab_settings_dir(folder):
    return pathlib.Path(folder).resolve() / ".jupyterlab-settings"


# The settings the tutor starts with, each written once: the student may change them.
SEEDED = {
    # the news question ("Would you like to get notified about official Jupyter news?")
    # would cover a lesson's widget
    ("apputils-extension", "notification"): '{"fetchNews": "false", "checkForUpdates": false}\n',
    # closing a lesson's tab ends its kernel (50-80 MB each), as a student expects
    ("notebook-extension", "tracker"): '{"kernelShutdown": true}\n',
}


def seed_lab_settings(folder):
    """Write the tutor's first settings (SEEDED) where the student has none yet."""
    for (extension, plugin), content in SEEDED.items():
        path = workspace.inside(folder, lab_settings_dir(folder) / "@jupyterlab" / extension
                                / f"{plugin}.jupyterlab-settings")
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")


# JupyterLab's locale for each lesson language (zh: the jupyterlab-language-pack-zh-CN package,
# which the tutor extra installs).
LAB_LOCALES = {"en": "en", "zh": "zh_CN"}


def set_lab_language(settings_dir, lang):
    """JupyterLab's menus in the lessons' language: its translation setting in `settings_dir`.

    The launcher writes the setting each time, for the language it was given; a language
    the student picked in JupyterLab (Settings > Language, which rewrites the file in its
    own form) is theirs and stays.  Returns whether the file was written.
    """
    path = (pathlib.Path(settings_dir) / "@jupyterlab" / "translation-extension"
            / "plugin.jupyterlab-settings")
    ours = {_locale_setting(locale) for locale in LAB_LOCALES.values()}
    if path.exists() and path.read_text(encoding="utf-8") not in ours:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_locale_setting(LAB_LOCALES[lang]), encoding="utf-8")
    return True


def _locale_setting(locale_name):
    return '{"locale": "%s"}\n' % locale_name
