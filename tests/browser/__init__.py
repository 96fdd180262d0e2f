"""Browser tests: JupyterLab driven by headless Chromium (a package, so its conftest has its own name)."""
