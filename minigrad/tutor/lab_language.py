"""A link that opens JupyterLab in a lesson language: /minigrad/lab-language/zh?next=lab/tree/...

JupyterLab takes its menus' language from a user setting, not from the URL.  On
Binder (or a JupyterHub) one server serves both languages, so the Chinese link
goes through this small Jupyter server extension: it writes the setting, as
`minigrad-tutor --lang zh` does (minigrad.tutor.jupyterlab.set_lab_language), then
sends the browser on to `next`, a path on the same server.  binder/postBuild
enables it::

    jupyter server extension enable --sys-prefix minigrad.tutor.lab_language
"""
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web

from minigrad.tutor.jupyterlab import set_lab_language

ROUTE = r"/minigrad/lab-language/(en|zh)"


class LabLanguageHandler(JupyterHandler):
    """GET /minigrad/lab-language/<lang>?next=<path>: set JupyterLab's language, then go on."""

    @web.authenticated
    def get(self, lang):
        set_lab_language(lab_settings_dir(self.serverapp), lang)
        target = self.get_argument("next", "lab").lstrip("/")
        if ":" in target.split("/")[0]:              # a path on this server, never a URL
            raise web.HTTPError(400, "next must be a path on this server")
        self.redirect(url_path_join(self.base_url, target))


def lab_settings_dir(server_app):
    """JupyterLab's user settings folder on this server (--LabApp.user_settings_dir, else
    JUPYTERLAB_SETTINGS_DIR, else ~/.jupyter/lab/user-settings)."""
    for app in server_app.extension_manager.extension_apps.get("jupyterlab", ()):
        if getattr(app, "user_settings_dir", None):
            return app.user_settings_dir
    from jupyterlab.commands import get_user_settings_dir
    return get_user_settings_dir()


def _jupyter_server_extension_points():
    return [{"module": "minigrad.tutor.lab_language"}]


def _load_jupyter_server_extension(server_app):
    web_app = server_app.web_app
    route = url_path_join(web_app.settings["base_url"], ROUTE)
    web_app.add_handlers(".*$", [(route, LabLanguageHandler)])
