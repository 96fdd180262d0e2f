"""The syllabus: the sixteen lessons in order, each with its number, slug (the notebook's
file name), titles, exercises, and what a student learns in it.

It sits below the packages that read it: the lessons (minigrad.lessons: notebooks, the
course index), the exercises (the progress overview, lesson by lesson) and the launcher::

    >>> from minigrad.syllabus import LESSONS
    >>> LESSONS[1].slug, LESSONS[1].title("zh")
    ('02-out-of-the-graph', '把运算挡在计算图之外')
"""
from typing import NamedTuple

from .settings import resolve_lang


class Lesson(NamedTuple):
    """One lesson: its number, slug (the notebook's file name), titles, exercise ids, and
    what a student learns in it (one line per language, shown by the course index)."""
    number: int
    slug: str
    title_en: str
    title_zh: str
    exercises: tuple
    learn_en: str = ""
    learn_zh: str = ""

    def title(self, lang=None):
        """The title in `lang` (default: minigrad.settings.lang)."""
        return self.title_zh if resolve_lang(lang) == "zh" else self.title_en

    def learn(self, lang=None):
        """What the lesson teaches, in `lang` (default: minigrad.settings.lang)."""
        return self.learn_zh if resolve_lang(lang) == "zh" else self.learn_en


# The one list of the lessons: `minigrad-tutor --list`, the notebooks' headings and their
# "Next lesson" links, the course index and the README's table all come from it.
LESSONS = (
    Lesson(1, "01-tensors-and-the-graph", "Tensors and the graph", "张量与计算图",
           ("graph_edges", "jacobian"),
           "what forward records: nodes (grad_fn), edges (next_functions), leaves; "
           "backward as vector-Jacobian products",
           "前向传播记录了什么：节点（grad_fn）、边（next_functions）、叶子张量；"
           "反向传播即向量-雅可比积"),
    Lesson(2, "02-out-of-the-graph", "Keeping things out of the graph",
           "把运算挡在计算图之外", ("straight_through", "newton_sqrt", "finetune_head"),
           "who requires grad; the graph rebuilt on every run; detach, no_grad, "
           "inference_mode, set_grad_enabled; freezing part of a model",
           "谁需要梯度；每次运行都重建的计算图；detach、no_grad、inference_mode、"
           "set_grad_enabled；冻结模型的一部分"),
    Lesson(3, "03-backward-order", "The order of backward", "反向传播的顺序",
           ("topo_order", "count_dependencies", "backpropagate"),
           "how the engine schedules the nodes: dependency counts and a ready queue; "
           "a whole backward by hand",
           "引擎怎样安排节点的运行顺序：依赖计数与就绪队列；亲手完成一次反向传播"),
    Lesson(4, "04-custom-functions", "Custom Functions", "自定义 Function",
           ("exp", "sigmoid", "relu", "mul_constant", "add_broadcast", "batched_matmul"),
           "writing forward and backward yourself: vector-Jacobian products; broadcasting; "
           "what Function.apply does; gradcheck",
           "自己编写 forward 和 backward：向量-雅可比积；广播；Function.apply 做了什么；gradcheck"),
    Lesson(5, "05-saving-tensors", "Saving tensors for backward", "为反向传播保存张量",
           ("seed_func", "tanh_saves_output"),
           "what to save for backward, how, and what it costs in memory",
           "反向传播要保存什么、怎么保存，又要占用多少内存"),
    Lesson(6, "06-inplace-and-versions", "In-place operations and version counters",
           "原地操作与版本计数器", ("inplace_relu",),
           "how version counters catch in-place changes; mark_dirty",
           "版本计数器怎样发现原地修改；mark_dirty"),
    Lesson(7, "07-ctx-flags", "Three switches on ctx", "ctx 上的三个开关",
           ("matmul", "max_with_index", "polar"),
           "needs_input_grad, mark_non_differentiable, set_materialize_grads; setup_context",
           "needs_input_grad、mark_non_differentiable、set_materialize_grads；setup_context"),
    Lesson(8, "08-hooks", "Hooks: watching gradients and saved tensors",
           "钩子：观察梯度与保存的张量", ("clip_grad_hook", "pack_float16"),
           "tensor and node hooks and their order; saved_tensors_hooks and memory",
           "张量钩子、节点钩子及其执行顺序；saved_tensors_hooks 与内存"),
    Lesson(9, "09-memory", "Memory: what the graph holds, and checkpointing",
           "内存：计算图持有什么，以及检查点", ("saved_bytes", "checkpoint"),
           "each node's _saved_* tensors, counting a graph's memory, checkpointing",
           "每个节点的 _saved_* 张量、统计计算图的内存、检查点"),
    Lesson(10, "10-retain-graph-and-debugging", "retain_graph, gradcheck and anomaly mode",
           "retain_graph、gradcheck 与异常检测模式", ("separate_gradients",),
           "the “second time” error and retain_graph; checking a backward; finding a NaN",
           "“第二次反向传播”报错与 retain_graph；检验 backward；追查 NaN"),
    Lesson(11, "11-bug-hunts", "Hunting bugs: overflow, NaN and in-place changes",
           "排查错误：溢出、NaN 与原地修改", ("logsumexp", "pairwise_distances", "fix_inplace"),
           "a stable log-sum-exp checked with gradcheck, a NaN traced to its inf, an in-place "
           "change through a view",
           "用 gradcheck 检验的稳定 log-sum-exp、追查到源头 inf 的 NaN、通过视图的原地修改"),
    Lesson(12, "12-higher-order", "Higher-order gradients: differentiating backward",
           "高阶导数：对反向传播本身求导", ("second_derivative", "cube_double_backward"),
           "create_graph, torch.autograd.grad, double backward, Newton's method",
           "create_graph、torch.autograd.grad、二次反向传播、牛顿法"),
    Lesson(13, "13-double-backward", "Double backward in depth", "深入二次反向传播",
           ("hvp", "softplus_double_backward", "sin_backward_function"),
           "Jacobians, Hessians and Hessian-vector products; intermediates returned as outputs; "
           "a backward that is a Function of its own",
           "雅可比矩阵、Hessian 与 Hessian-向量积；作为输出返回的中间结果；写成独立 Function 的 backward"),
    Lesson(14, "14-forward-mode", "Forward-mode AD and dual numbers",
           "前向模式自动微分与对偶数", ("mul_jvp", "normalize_both_modes"),
           "dual numbers, forward_ad, the jvp of a custom Function; one Function for both modes",
           "对偶数、forward_ad、自定义 Function 的 jvp；同时支持两种模式的 Function"),
    Lesson(15, "15-gpu", "The GPU: devices and GPU memory", "GPU：设备与显存",
           ("offload_to_cpu",),
           "devices, moving tensors, GPU memory and save_on_cpu",
           "设备、在设备间搬运张量、显存与 save_on_cpu"),
    Lesson(16, "16-capstone", "Capstone: train a network with your own Functions",
           "结业项目：用自己写的 Function 训练网络", ("linear",),
           "a Linear Function, a small network trained on two moons, every gradient checked",
           "Linear Function、在双月牙数据上训练小网络、逐个核对梯度"),
)
