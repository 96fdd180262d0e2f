"""The `minigrad-tutor` launcher: lessons into a workspace, then JupyterLab.

`workspace` copies, keeps and resets the student's notebooks (pure file
logic, no Jupyter); `cli` parses the command line and starts JupyterLab;
`messages` holds what the launcher says, in English and Chinese.
"""
