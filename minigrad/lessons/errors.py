"""Errors a lesson shows on purpose, with a Chinese gloss in the Chinese lessons.

An error's message is PyTorch's, in English, in both languages: it is what the
student will meet in PyTorch, and what a search finds.  A Chinese lesson adds,
under it, what it means, from GLOSSES (the errors the lessons show)::

    >>> import minigrad
    >>> from minigrad.lessons import show_error
    >>> minigrad.settings.lang = "zh"
    >>> show_error(RuntimeError("Trying to backward through the graph a second time (or ..."))
    Trying to backward through the graph a second time (or ...
    （中文说明：第二次对同一张计算图做反向传播。第一次 backward 之后，计算图里保存的张量已经释放；确实要再做一次反向传播，就在第一次调用时传入 retain_graph=True。）
    >>> minigrad.settings.lang = None
"""
from .. import settings

__all__ = ["show_error", "gloss"]

# (a piece of the message, what it means): the errors the lessons show, first match wins
GLOSSES = (
    ("returned an incorrect number of gradients",
     "backward 返回的梯度个数不对：forward 的每个输入都要对应一个梯度，不是张量或不需要梯度的输入就返回 None。"),
    ("returned an invalid gradient at index",
     "backward 返回的某个梯度形状不对：每个输入的梯度都必须和这个输入的形状相同。"),
    ("Jacobian computed with forward mode mismatch",
     "gradcheck 发现，用 jvp 在前向模式下算出的雅可比矩阵（analytical）和有限差分算出的"
     "（numerical）不一致：jvp 的公式有误。"),
    ("Jacobian mismatch for output",
     "gradcheck 发现，backward 算出的雅可比矩阵（analytical）和有限差分算出的（numerical）"
     "不一致：backward 的公式有误。"),
    ("backward through the graph a second time",
     "第二次对同一张计算图做反向传播。第一次 backward 之后，计算图里保存的张量已经释放；"
     "确实要再做一次反向传播，就在第一次调用时传入 retain_graph=True。"),
    ("modified by an inplace operation",
     "backward 需要的一个保存的张量在保存之后被原地操作改过了（版本计数器对不上），"
     "backward 会用到错误的值。请改用非原地的运算，或者先 clone() 再修改。"),
    ("leaf Variable that requires grad is being used in an in-place operation",
     "不能对需要梯度的叶子张量做原地操作：更新参数要放在 `with torch.no_grad():` 里。"),
    ("returned nan values",
     "异常检测模式发现某个节点的 backward 返回了 NaN；上面的警告给出了创建这个节点的前向代码。"),
    ("does not require grad and does not have a grad_fn",
     "这个张量既不需要梯度，也没有 grad_fn：它的计算没有被记录下来。请给叶子张量设置 "
     "requires_grad=True，并检查计算是否在 torch.no_grad() 里或经过了 .detach()。"),
    ("not compiled with CUDA enabled",
     "这里用不了 CUDA：minigrad 的 GPU 支持需要一块 NVIDIA GPU 和 CuPy。"),
    ("grad can be implicitly created only for scalar outputs",
     "只有标量输出才能隐式地创建梯度：对非标量的输出调用 backward() 时，要传入和输出形状相同的 "
     "gradient（例如 torch.ones_like(y)），或者先用 .sum() 得到一个标量。"),
    ("must implement the jvp function",
     "要在前向模式自动微分中使用自定义 Function，必须为它实现 jvp 方法。"),
    ("Expected all tensors to be on the same device",
     "参与同一个运算的张量必须在同一个设备上：先用 .to(device) 把它们放到一起。"),
)


def gloss(error, lang=None):
    """What the error's message means, in Chinese, for a Chinese lesson; else None."""
    if settings.resolve_lang(lang) != "zh":
        return None
    text = str(error)
    return next((meaning for piece, meaning in GLOSSES if piece in text), None)


def show_error(error, *, name=False, lines=None, lang=None):
    """Print `error` as a lesson shows it: its message (preceded by its type with `name`,
    its first `lines` lines only when given), then, in a Chinese lesson, its gloss."""
    text = str(error)
    if lines is not None:
        text = "\n".join(text.splitlines()[:lines])
    print(f"{type(error).__name__}: {text}" if name else text)
    meaning = gloss(error, lang)
    if meaning is not None:
        print(f"（中文说明：{meaning}）")
