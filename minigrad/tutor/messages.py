"""What the launcher says, in English and Simplified Chinese.

A command it tells the student to run is written as they started it: `{command}` is
scripts/start-tutor.sh when that script started the launcher (it sets
MINIGRAD_TUTOR_COMMAND), else minigrad-tutor.

>>> say("zh", "no_jupyterlab")
'没有安装 JupyterLab。请安装：pip install "minigrad-tutor[tutor]"'
"""
import os

MESSAGES = {
    "en": {
        "workspace": "Your {lang_name} lessons are in {folder}",
        "added": "  added    {path}",
        "updated": "  updated  {path} (a newer lesson; you had not edited it)",
        "kept": ("  kept     {path}: you edited it, so it stays as it is.\n"
                 "           The newer lesson is saved next to it: {new}\n"
                 "           To switch to it: {command} --reset {number} "
                 "(your copy is backed up first)"),
        "edited": "  Your edits are kept in {count} notebook(s).",
        "renumbered": "  renamed  {old} to {path}: the lessons have a new order",
        "starting": "Starting JupyterLab on {lesson} (stop it with Ctrl+C)...",
        "restored": "Restored {path} from the lesson as shipped.",
        "backed_up": "Your previous copy is saved in {backup}",
        "no_jupyterlab": 'JupyterLab is not installed. Install it with: pip install "minigrad-tutor[tutor]"',
        "no_workspace": "{folder} is not a lesson workspace yet: run {command} first.",
        "no_progress": "No exercise checked yet in {folder}.",
        "progress_header": "Exercises passed: {passed} of {total}  ({folder})",
        "attempts": "{count} attempt(s)",
        "other_ids": "Other exercises",
        "new_backed_up": "           Your edits in it were moved to {backup} first.",
        "damaged": ("The workspace file {file} could not be read (damaged, or changed by hand).\n"
                    "  It is kept as {backup}, and a new one is written."),
        "progress_damaged": ("Your progress file {file} is damaged: what could be read is shown.\n"
                             "  The next check keeps it as a backup and starts a new one."),
        "cannot_write": ("Cannot write in {folder} ({error}).\n"
                         "  Make the folder writable (chmod -R u+w), or choose another one with --dir."),
        "link_outside": ("{path} is a link to {target}, outside the workspace: minigrad-tutor\n"
                         "  does not write through it. Replace the link by a real folder, or choose\n"
                         "  another workspace with --dir."),
        "already_running": ("The lessons in {folder} are already open in JupyterLab: {url}\n"
                            "  Open that address in your browser, or stop that JupyterLab\n"
                            "  (Ctrl+C in its terminal) before starting a new one."),
        "already_starting": ("minigrad-tutor is already running on {folder} (process {pid}); its\n"
                             "  terminal shows the address to open. Stop it (Ctrl+C in its terminal)\n"
                             "  before starting a new one."),
        "reset_open": ("{path} is open in JupyterLab: close its tab first (File > Close Tab,\n"
                       "  which also stops its kernel), then run --reset {lesson} again. Reset now,\n"
                       "  JupyterLab would offer to overwrite the lesson with the tab's copy."),
        "switched": ("JupyterLab is already running on {folder}: your {lang_name} lessons are now in\n"
                     "  {lessons}, and its menus are in {lang_name} in every page you open (or reload)\n"
                     "  from now on. The course index: {url}"),
        "solutions_hidden": ("The solution notebooks are hidden in this course (your teacher set "
                             "MINIGRAD_HIDE_SOLUTIONS=1, or they are not installed here)."),
        "solutions_removed": "  Solution notebooks hidden by your teacher: {count} taken out of the workspace.",
        "solutions_kept": "  kept     {path}: you edited it, so it stays.",
        "table_damaged": "{file} is damaged: the table holds what could be read of it.",
        "no_folder": "{folder} is not a folder: name each student's folder (their home, or their workspace).",
        "nbgrader_no_solutions": ("The solution notebooks are not installed here (a package built "
                                  "with MINIGRAD_HIDE_SOLUTIONS=1); nbgrader's course needs them: "
                                  'pip install "minigrad-tutor[tutor]" without that variable.'),
        "nbgrader_course": "nbgrader course of the {lang_name} lessons in {folder}: {count} assignments",
        "nbgrader_kept": ("  kept     {path}: it differs from this lesson (your changes?);\n"
                          "           delete it and run this again to get the lesson as shipped"),
        "nbgrader_unchanged": "  unchanged {path}",
        "nbgrader_next": ("Then, in {folder} (see docs/teaching.md, \"Grading with nbgrader\"):\n"
                          "  nbgrader generate_assignment {assignment}\n"
                          "  nbgrader autograde {assignment}   "
                          "# each submission in a sandbox: apt-get install bubblewrap\n"
                          "  nbgrader export"),
        "nbgrader_unsandboxed": ("{path} grades without the sandbox (an older minigrad wrote it): "
                                 "student code would run on your account. Delete it and run this "
                                 "again."),
        "lang_name": "English",
    },
    "zh": {
        "workspace": "你的{lang_name}课程在 {folder}",
        "added": "  已添加  {path}",
        "updated": "  已更新  {path}（有新版课程，你没有改动过它）",
        "kept": ("  已保留  {path}：你修改过它，所以原样保留。\n"
                 "          新版课程保存在旁边：{new}\n"
                 "          想换成新版：{command} --reset {number}（会先备份你的副本）"),
        "edited": "  你修改过的 {count} 个笔记本都原样保留。",
        "renumbered": "  已改名  {old} → {path}：课程的顺序调整了",
        "starting": "正在启动 JupyterLab，打开 {lesson}（按 Ctrl+C 停止）……",
        "restored": "已把 {path} 恢复成课程原版。",
        "backed_up": "你原来的副本保存在 {backup}",
        "no_jupyterlab": '没有安装 JupyterLab。请安装：pip install "minigrad-tutor[tutor]"',
        "no_workspace": "{folder} 还不是课程工作区：请先运行 {command}。",
        "no_progress": "{folder} 里还没有检查过任何练习。",
        "progress_header": "已通过的练习：{passed} / {total}（{folder}）",
        "attempts": "尝试 {count} 次",
        "other_ids": "其他练习",
        "new_backed_up": "          你在其中的修改已先移到 {backup}。",
        "damaged": ("无法读取工作区文件 {file}（已损坏，或者被手动改过）。\n"
                    "  它已另存为 {backup}，并重新写入一个新文件。"),
        "progress_damaged": ("你的进度文件 {file} 已损坏，下面只列出能读出的部分。\n"
                             "  下一次检查时会把它另存为备份，并开始记录新的进度。"),
        "cannot_write": ("无法写入 {folder}（{error}）。\n"
                         "  请让这个文件夹可写（chmod -R u+w），或者用 --dir 换一个文件夹。"),
        "link_outside": ("{path} 是指向工作区之外 {target} 的链接：minigrad-tutor 不会通过它写入文件。\n"
                         "  请把这个链接换成真正的文件夹，或者用 --dir 换一个工作区。"),
        "already_running": ("{folder} 里的课程已经在 JupyterLab 中打开：{url}\n"
                            "  请在浏览器中打开这个地址；如果要重新启动，请先停止那个 JupyterLab"
                            "（在它的终端里按 Ctrl+C）。"),
        "already_starting": ("minigrad-tutor 已经在 {folder} 上运行（进程 {pid}），它的终端里显示了要打开的地址。\n"
                             "  如果要重新启动，请先停止它（在它的终端里按 Ctrl+C）。"),
        "reset_open": ("{path} 正在 JupyterLab 中打开：请先关闭它的标签页（文件 > 关闭标签页，\n"
                       "  这也会停止它的内核），再运行 --reset {lesson}。现在就恢复的话，\n"
                       "  JupyterLab 会提出用标签页里的版本覆盖恢复好的课程。"),
        "switched": ("{folder} 的 JupyterLab 已经在运行：你的{lang_name}课程已放在 {lessons}，\n"
                     "  之后打开（或刷新）的页面，菜单都会是{lang_name}。课程目录：{url}"),
        "solutions_hidden": "这门课隐藏了参考答案（老师设置了 MINIGRAD_HIDE_SOLUTIONS=1，或者这里没有安装参考答案）。",
        "solutions_removed": "  老师隐藏了参考答案：已从工作区移走 {count} 个参考答案笔记本。",
        "solutions_kept": "  已保留  {path}：你修改过它，所以原样保留。",
        "table_damaged": "{file} 已损坏：表中只有能读出的部分。",
        "no_folder": "{folder} 不是文件夹：请写出每个学生的文件夹（他们的主目录或课程工作区）。",
        "nbgrader_no_solutions": ("这里没有安装参考答案（安装包是在 MINIGRAD_HIDE_SOLUTIONS=1 下构建的），"
                                  "而 nbgrader 的课程目录需要它们：请不设这个变量，重新 "
                                  'pip install "minigrad-tutor[tutor]"。'),
        "nbgrader_course": "{lang_name}课程的 nbgrader 课程目录在 {folder}：共 {count} 份作业",
        "nbgrader_kept": ("  已保留  {path}：它和这一讲的内容不同（你改过？）；\n"
                          "          删掉它再运行一次，就会重新写入课程原版"),
        "nbgrader_unchanged": "  未改动  {path}",
        "nbgrader_next": ("接下来在 {folder} 里运行（详见 docs/teaching.md 的 “Grading with nbgrader” 一节）：\n"
                          "  nbgrader generate_assignment {assignment}\n"
                          "  nbgrader autograde {assignment}   "
                          "# 每份作业都在沙箱中运行：apt-get install bubblewrap\n"
                          "  nbgrader export"),
        "nbgrader_unsandboxed": ("{path} 评分时不使用沙箱（由旧版 minigrad 写入）：学生的代码会以你的账户运行。"
                                 "请删掉它，再运行一次这个命令。"),
        "lang_name": "中文",
    },
}


def say(lang, key, **values):
    """The message `key` in `lang`, with `values` filled in."""
    return MESSAGES[lang][key].format(lang_name=MESSAGES[lang]["lang_name"],
                                      command=launcher_command(), **values)


def launcher_command():
    """How the student starts the tutor: what scripts/start-tutor.sh said, or minigrad-tutor."""
    return os.environ.get("MINIGRAD_TUTOR_COMMAND") or "minigrad-tutor"
