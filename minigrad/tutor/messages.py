"""What the launcher says, in English and Simplified Chinese.

>>> say("zh", "no_jupyterlab")
'没有安装 JupyterLab。请安装：pip install "minigrad-tutor[tutor]"'
"""
MESSAGES = {
    "en": {
        "workspace": "Your {lang_name} lessons are in {folder}",
        "added": "  added    {path}",
        "updated": "  updated  {path} (a newer lesson; you had not edited it)",
        "kept": ("  kept     {path}: you edited it, so it stays as it is.\n"
                 "           The newer lesson is saved next to it: {new}\n"
                 "           To switch to it: minigrad-tutor --reset {number} "
                 "(your copy is backed up first)"),
        "edited": "  Your edits are kept in {count} notebook(s).",
        "starting": "Starting JupyterLab on {lesson} (stop it with Ctrl+C)...",
        "restored": "Restored {path} from the lesson as shipped.",
        "backed_up": "Your previous copy is saved in {backup}",
        "no_jupyterlab": 'JupyterLab is not installed. Install it with: pip install "minigrad-tutor[tutor]"',
        "no_workspace": "{folder} is not a lesson workspace yet: run minigrad-tutor first.",
        "no_progress": "No exercise checked yet in {folder}.",
        "progress_header": "Exercises passed: {passed} of {total}  ({folder})",
        "attempts": "{count} attempt(s)",
        "other_ids": "Other exercises",
        "lang_name": "English",
    },
    "zh": {
        "workspace": "你的{lang_name}课程在 {folder}",
        "added": "  已添加  {path}",
        "updated": "  已更新  {path}（有新版课程，你没有改动过它）",
        "kept": ("  已保留  {path}：你修改过它，所以原样保留。\n"
                 "          新版课程保存在旁边：{new}\n"
                 "          想换成新版：minigrad-tutor --reset {number}（会先备份你的副本）"),
        "edited": "  你修改过的 {count} 个笔记本都原样保留。",
        "starting": "正在启动 JupyterLab，打开 {lesson}（按 Ctrl+C 停止）……",
        "restored": "已把 {path} 恢复成课程原版。",
        "backed_up": "你原来的副本保存在 {backup}",
        "no_jupyterlab": '没有安装 JupyterLab。请安装：pip install "minigrad-tutor[tutor]"',
        "no_workspace": "{folder} 还不是课程工作区：请先运行 minigrad-tutor。",
        "no_progress": "{folder} 里还没有检查过任何练习。",
        "progress_header": "已通过的练习：{passed} / {total}（{folder}）",
        "attempts": "尝试 {count} 次",
        "other_ids": "其他练习",
        "lang_name": "中文",
    },
}


def say(lang, key, **values):
    """The message `key` in `lang`, with `values` filled in."""
    return MESSAGES[lang][key].format(lang_name=MESSAGES[lang]["lang_name"], **values)
