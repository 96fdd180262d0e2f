"""Lesson 08, hooks: clip_grad_hook (a tensor hook), pack_float16 (saved-tensor hooks).

A hook is called directly first (what it returns, whether it changed its
argument, how many bytes a packed tensor keeps), then inside a real backward.
"""
import math

import numpy as np

from ..surface import creation, dtypes
from ..autograd.graph import saved_tensors_hooks
from . import _tools
from ._tools import Hint, as_array
from ._trial import dtype_of, field, matrix_shape, seen, tensor_of, uniform, value_of

MESSAGES = {
    "hook_modified_grad": {
        "en": "Your hook changed the gradient it received, in place. Other hooks and the "
              "engine still use that tensor: return a new tensor instead of modifying grad.",
        "zh": "你的钩子原地修改了收到的梯度。其他钩子和引擎还在使用这个张量："
              "请返回一个新的张量，而不是修改 grad。"},
    "hook_returned_none": {
        "en": "Your hook returned None, which leaves the gradient unchanged. Return the new "
              "(clamped) gradient.",
        "zh": "你的钩子返回了 None，这表示梯度保持不变。请返回新的（截断后的）梯度。"},
    "wrong_clip_range": {
        "en": "The hook's result is not the gradient clamped to [-1, 1]: entries above 1 must "
              "become 1, entries below -1 must become -1, and the others stay as they are.",
        "zh": "钩子的结果不是截断到 [-1, 1] 的梯度：大于 1 的元素要变成 1，小于 -1 的要变成 -1，"
              "其余元素保持不变。"},
    "hook_args": {
        "en": "A tensor hook is called with one argument, the gradient: hook(grad). Your "
              "function's parameters do not fit that call.",
        "zh": "张量钩子被调用时只有一个参数，就是梯度：hook(grad)。你的函数的参数和这种调用方式对不上。"},
    "hooks_swapped": {
        "en": "The two hooks are swapped: your first function restores float32, your second one "
              "makes float16. The tuple is (pack_hook, unpack_hook): pack runs when a tensor is "
              "saved, unpack when backward needs it.",
        "zh": "两个钩子的顺序反了：你的第一个函数把数据还原成 float32，第二个函数才转成 float16。"
              "元组的顺序是 (pack_hook, unpack_hook)：保存张量时调用 pack，反向传播需要它时调用 unpack。"},
    "not_hook_pair": {
        "en": "Expected a tuple (pack_hook, unpack_hook) of two functions, got {got}.",
        "zh": "这里需要由两个函数组成的元组 (pack_hook, unpack_hook)，但收到的是 {got}。"},
    "pack_not_half": {
        "en": "What pack_hook returns still holds {got} bytes for a float32 tensor of {expected} "
              "bytes: store it as float16 (half the bytes), and keep no reference to the "
              "original tensor.",
        "zh": "对于一个 {expected} 字节的 float32 张量，pack_hook 返回的东西仍然占用 {got} 字节："
              "请把它存成 float16（字节数减半），并且不要保留对原张量的引用。"},
    "unpack_dtype": {
        "en": "unpack_hook gave back a tensor of dtype {got}; backward expects the dtype that "
              "was saved, float32. Convert back when unpacking.",
        "zh": "unpack_hook 返回的张量数据类型是 {got}，而反向传播需要的是保存时的数据类型 "
              "float32。解包时要转换回来。"},
    "pack_other_dtypes": {
        "en": "Your hooks change a {dtype} tensor too: it comes back as {got}, or with other "
              "values. Only float32 tensors are to be stored as float16; leave tensors of "
              "other dtypes (float64, or the int64 indices that some operations save) as "
              "they are, in pack_hook and in unpack_hook.",
        "zh": "你的钩子把 {dtype} 张量也改了：解包后得到的是 {got}，或者数值变了。只有 float32 "
              "张量才要存成 float16；其他 dtype 的张量（float64，或者某些运算保存的 int64 索引）"
              "在 pack_hook 和 unpack_hook 里都要保持原样。"},
    "unpack_values": {
        "en": "unpack_hook does not give back the saved values (up to float16 rounding), or "
              "the shape changed. pack then unpack must restore the tensor.",
        "zh": "unpack_hook 没有还原保存的数值（允许 float16 的舍入误差），或者形状变了。"
              "先打包再解包，必须能还原这个张量。"},
}


_GRAD = [-3.0, -0.5, 0.0, 0.7, 2.5, 1.0, -1.0, 1.5]


def check_clip_grad_hook(answer):
    hook = _tools.require_callable(answer)
    for dtype in ("float32", "float64"):
        grad = creation.tensor(np.array(_GRAD, dtype=dtype))
        _check_hook_result(hook, grad)
    scale = np.array([3.0, -0.2, -4.0, 0.5])
    x = creation.tensor(np.array([1.0, 2.0, -1.0, 0.5]), requires_grad=True)
    x.register_hook(hook)
    (x * creation.tensor(scale)).sum().backward()
    if not _tools.close(as_array(x.grad), np.clip(scale, -1, 1), x.dtype):
        raise Hint("wrong_clip_range")
    leaf = creation.tensor(np.array([1.0, 2.0, -1.0, 0.5]), requires_grad=True)
    hidden = leaf * 2
    hidden.register_hook(hook)
    (hidden * creation.tensor(scale)).sum().backward()
    if not _tools.close(as_array(leaf.grad), 2 * np.clip(scale, -1, 1), leaf.dtype):
        raise Hint("wrong_clip_range")


def _check_hook_result(hook, grad):
    before = as_array(grad)
    _tools.require_parameters(hook, (grad,), "hook_args")
    result = hook(grad)
    if not np.array_equal(as_array(grad), before):
        raise Hint("hook_modified_grad")
    if result is None:
        raise Hint("hook_returned_none")
    _tools.require_tensor(result, "hook")
    if tuple(result.shape) != tuple(grad.shape):
        raise Hint("wrong_shape", where="hook", got=list(result.shape),
                   expected=list(grad.shape))
    if result.dtype is not grad.dtype:
        raise Hint("wrong_dtype", where="hook", got=_tools.dtype_name(result.dtype),
                   expected=_tools.dtype_name(grad.dtype))
    if not _tools.close(as_array(result), np.clip(before, -1, 1), grad.dtype):
        raise Hint("wrong_clip_range")


def _nbytes(value, seen=None):
    """Bytes held by tensors and arrays inside `value` (tuples, lists, dicts followed)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if _tools.is_tensor(value):
        return value._data.nbytes
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, (tuple, list)):
        return sum(_nbytes(item, seen) for item in value)
    if isinstance(value, dict):
        return sum(_nbytes(item, seen) for item in value.values())
    return 0


def _hook_pair(answer):
    if (not isinstance(answer, (tuple, list)) or len(answer) != 2
            or not all(callable(hook) for hook in answer)):
        raise Hint("not_hook_pair", got=_tools.describe(answer))
    return answer


def check_pack_float16(answer):
    pack, unpack = _hook_pair(answer)
    generator = np.random.default_rng(40)
    original = generator.uniform(-3, 3, size=(16, 8)).astype(np.float32)
    tensor = creation.tensor(original)
    packed = pack(tensor)
    size = _nbytes(packed)
    if size > original.nbytes // 2:
        if _makes_float16(unpack, tensor):
            raise Hint("hooks_swapped")
        raise Hint("pack_not_half", got=size, expected=original.nbytes)
    restored = unpack(packed)
    _tools.require_tensor(restored, "unpack_hook")
    if restored.dtype is not dtypes.float32:
        raise Hint("unpack_dtype", got=_tools.dtype_name(restored.dtype))
    if (tuple(restored.shape) != original.shape
            or not np.allclose(as_array(restored), original, rtol=1e-3, atol=1e-3)):
        raise Hint("unpack_values")
    _check_other_dtypes(pack, unpack, generator)
    _check_in_backward(pack, unpack, generator)


def _check_other_dtypes(pack, unpack, generator):
    """The exercise converts float32 only: float64 values, and the int64 indices that ops
    like max save, must come back exactly as they were."""
    indices = np.arange(-3, 9, dtype=np.int64).reshape(4, 3)     # int64 on every platform
    for values in (generator.uniform(-3, 3, size=(4, 3)), indices):
        tensor = creation.tensor(values)
        restored = unpack(pack(tensor))
        if not (_tools.is_tensor(restored) and restored.dtype is tensor.dtype
                and tuple(restored.shape) == values.shape
                and np.array_equal(as_array(restored), values)):
            got = str(restored.dtype) if _tools.is_tensor(restored) else _tools.describe(restored)
            raise Hint("pack_other_dtypes", dtype=str(tensor.dtype), got=got)


def _makes_float16(hook, tensor):
    """Whether `hook(tensor)` gives a float16 tensor (a pack hook passed as unpack)."""
    try:
        return getattr(hook(tensor), "dtype", None) is dtypes.float16
    except Exception:       # noqa: BLE001 — an unpack hook may well refuse a plain tensor
        return False


def _check_in_backward(pack, unpack, generator):
    """The hooks inside a real backward: gradients right up to float16 rounding."""
    values = generator.uniform(-1, 1, size=(5, 4)).astype(np.float32)
    x = creation.tensor(values, requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        y = (x.exp() * x).sum()
    y.backward()
    expected = np.exp(values) * (1 + values)
    if x.grad is None or x.grad.dtype is not dtypes.float32:
        raise Hint("unpack_dtype", got=_tools.dtype_name(getattr(x.grad, "dtype", None)))
    if not np.allclose(as_array(x.grad), expected, rtol=1e-2, atol=1e-2):
        raise Hint("unpack_values")


CHECKS = {"clip_grad_hook": check_clip_grad_hook, "pack_float16": check_pack_float16}


# --- the trials (see _trial): the same, on values drawn when a grader grades -----------------

class _ClipTrial:
    """The hook called on a gradient beyond [-1, 1] in places, then inside a backward."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        shape, dtype = matrix_shape(rng), dtype_of(rng)
        values, scale = uniform(rng, shape, dtype, -3, 3), uniform(rng, 4, "float64", -3, 3)
        for beyond in (values.reshape(-1), scale):       # one value past each end at least
            beyond[:2] = (-1.5 - abs(beyond[0]), 1.5 + abs(beyond[1]))
        return values, scale

    def run(self, answer, seed):
        hook = _tools.require_callable(answer)
        values, scale = self.draw(seed)
        grad = creation.tensor(values)
        result = hook(grad)
        report = {"result": seen(result), "grad_kept": np.array_equal(as_array(grad), values)}
        x = creation.tensor(np.ones(scale.shape), requires_grad=True)
        x.register_hook(hook)
        (x * creation.tensor(scale)).sum().backward()
        report["x_grad"] = seen(x.grad)
        return report

    def judge(self, report, seed):
        values, scale = self.draw(seed)
        if not report["grad_kept"]:
            raise Hint("hook_modified_grad")
        if report["result"] is None:
            raise Hint("hook_returned_none")
        _tools.check_output(value_of(report["result"]), creation.tensor(np.clip(values, -1, 1)),
                            "hook")
        x_grad = tensor_of(report["x_grad"], "hook")
        if not _tools.close(as_array(x_grad), np.clip(scale, -1, 1), x_grad.dtype):
            raise Hint("wrong_clip_range")


_SIZES = {"float16": 2, "float32": 4, "float64": 8, "int64": 8, "bool": 1}


class _Float16Trial:
    """What pack keeps of a float32 tensor (its tensors and arrays: dtype and values, which
    must hold the tensor's values in half the bytes), what unpack gives back, float64 and
    int64 tensors passed through, and a backward under the hooks."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        shape = tuple(int(size) for size in rng.integers(2, 9, size=2))
        return (uniform(rng, shape, "float32", -3, 3), uniform(rng, shape, "float64", -3, 3),
                rng.integers(-5, 9, size=shape), uniform(rng, shape[0], "float32", -1, 1))

    def run(self, answer, seed):
        pack, unpack = _hook_pair(answer)
        single, double, integers, values = self.draw(seed)
        packed = pack(creation.tensor(single))
        report = {"kept": [seen(t if _tools.is_tensor(t) else creation.tensor(t))
                           for t in _held(packed)],
                  "restored": seen(unpack(packed)),
                  "others": [seen(unpack(pack(creation.tensor(v)))) for v in (double, integers)]}
        x = creation.tensor(values, requires_grad=True)
        with saved_tensors_hooks(pack, unpack):
            y = (x.exp() * x).sum()
        y.backward()
        report["grad"] = seen(x.grad)
        return report

    def judge(self, report, seed):
        single, double, integers, values = self.draw(seed)
        kept = [value_of(entry) for entry in field(report, "kept", list)]
        if not any(_tools.is_tensor(t) and tuple(t.shape) == single.shape
                   and np.allclose(as_array(t), single, rtol=1e-3, atol=1e-3) for t in kept):
            raise Hint("nothing_stored")
        size = sum(math.prod(t.shape) * _SIZES.get(_tools.dtype_name(t.dtype), 8)
                   for t in kept if _tools.is_tensor(t))
        if size > single.nbytes // 2:
            raise Hint("pack_not_half", got=size, expected=single.nbytes)
        restored = tensor_of(report["restored"], "unpack_hook")
        if restored.dtype is not dtypes.float32:
            raise Hint("unpack_dtype", got=_tools.dtype_name(restored.dtype))
        if (tuple(restored.shape) != single.shape
                or not np.allclose(as_array(restored), single, rtol=1e-3, atol=1e-3)):
            raise Hint("unpack_values")
        for entry, original in zip(field(report, "others", list), (double, integers)):
            tensor = value_of(entry)
            expected = creation.tensor(original)
            if not (_tools.is_tensor(tensor) and tensor.dtype is expected.dtype
                    and np.array_equal(as_array(tensor), as_array(expected))):
                got = _tools.dtype_name(tensor.dtype) if _tools.is_tensor(tensor) \
                    else _tools.describe(tensor)
                raise Hint("pack_other_dtypes", dtype=str(expected.dtype), got=got)
        grad = tensor_of(report["grad"], "unpack_hook")
        if grad.dtype is not dtypes.float32:
            raise Hint("unpack_dtype", got=_tools.dtype_name(grad.dtype))
        if not np.allclose(as_array(grad), np.exp(values) * (1 + values), rtol=1e-2, atol=1e-2):
            raise Hint("unpack_values")


def _held(value, seen_ids=None):
    """The tensors and arrays inside what pack returned (tuples, lists, dicts followed)."""
    seen_ids = set() if seen_ids is None else seen_ids
    if id(value) in seen_ids:
        return []
    seen_ids.add(id(value))
    if _tools.is_tensor(value) or isinstance(value, np.ndarray):
        return [value]
    items = value.values() if isinstance(value, dict) else \
        value if isinstance(value, (tuple, list)) else ()
    return [held for item in items for held in _held(item, seen_ids)]


TRIALS = {"clip_grad_hook": _ClipTrial(), "pack_float16": _Float16Trial()}
