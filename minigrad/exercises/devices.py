"""Lesson 15, devices: offload_to_cpu, a pack/unpack pair that keeps saved tensors on the host.

The answer is `(pack_hook, unpack_hook)`, the pair `save_on_cpu` uses: pack
stores a saved tensor in host memory together with the device it came from,
unpack puts it back there.  The check looks at what pack stores (the
device, a tensor or array on the CPU, the same values), then runs a real
backward under the hooks.  Every step means something on a machine without
a GPU: the device must be remembered, and unpack must not send a CPU tensor
to "cuda"; where a GPU is present (CuPy, or the tests' stand-in for it) the
tensor's own device is tried as well, and a packed tensor still on it is
the mistake of the exercise.
"""
import numpy as np

from .. import backend, cuda
from ..surface import creation, dtypes
from ..autograd.graph import saved_tensors_hooks
from . import _tools
from ._tools import Hint, as_array
from ._trial import field, seen, tensor_of, uniform, value_of

MESSAGES = {
    "forgot_device": {
        "en": "pack_hook does not remember where the tensor came from: unpack_hook must put it "
              "back on that device (a tensor saved on the GPU must come back to the GPU). Store "
              "the device with the tensor, e.g. as a pair.",
        "zh": "pack_hook 没有记下张量原来在哪个设备上：unpack_hook 必须把它放回原来的设备"
              "（在 GPU 上保存的张量，必须回到 GPU）。把设备和张量一起存起来，比如存成一对。"},
    "still_on_device": {
        "en": "What pack_hook stores is still on {device}: it holds device memory until "
              "backward. Move it to host memory (.cpu()).",
        "zh": "pack_hook 存下来的东西仍然在 {device} 上，一直占着设备内存直到反向传播。"
              "请把它搬到主机内存（.cpu()）。"},
    "nothing_stored": {
        "en": "What pack_hook returns holds no tensor or array: backward will need the values.",
        "zh": "pack_hook 返回的东西里没有任何张量或数组：反向传播还要用到这些数值。"},
    "unpack_sends_to_cuda": {
        "en": "unpack_hook sends every tensor to \"cuda\", whatever its device was: a tensor "
              "saved on the CPU must come back to the CPU. Use the device pack_hook stored.",
        "zh": "unpack_hook 不管张量原来在哪，一律送到 “cuda”：在 CPU 上保存的张量必须回到 CPU。"
              "请使用 pack_hook 记下的设备。"},
    "unpack_wrong_device": {
        "en": "unpack_hook gave back a tensor on {got}; it was saved on {expected}. Put it back "
              "on the device pack_hook stored.",
        "zh": "unpack_hook 返回的张量在 {got} 上，而它保存时在 {expected} 上。"
              "请把它放回 pack_hook 记下的设备。"},
    "unpack_changed_tensor": {
        "en": "unpack_hook does not give back the saved tensor: the values, shape or dtype "
              "({got}, saved as {expected}) changed. Unpacking must restore it exactly.",
        "zh": "unpack_hook 没有还原保存的张量：数值、形状或数据类型（{got}，保存时是 "
              "{expected}）变了。解包必须原样还原它。"},
    "hooks_break_backward": {
        "en": "With your hooks in place, backward computes a wrong gradient: what unpack_hook "
              "gives back must be exactly the tensor that was saved.",
        "zh": "用上你的钩子之后，反向传播算出的梯度不对：unpack_hook 返回的必须正是当初保存的那个张量。"},
    "numpy_needs_detach": {
        "en": "pack_hook called .numpy() on a tensor that requires grad, which is refused. "
              "Keep a tensor (tensor.cpu()), or call .detach() before .numpy().",
        "zh": "pack_hook 对需要梯度的张量调用了 .numpy()，这是不允许的。"
              "请保留张量（tensor.cpu()），或者先 .detach() 再 .numpy()。"},
}


def _devices():
    return ["cpu", "cuda"] if cuda.is_available() else ["cpu"]


def _stored(value, found=None):
    """The tensors/arrays and devices inside what pack returned (tuples, lists, dicts)."""
    found = {"data": [], "devices": []} if found is None else found
    if _tools.is_tensor(value) or isinstance(value, np.ndarray):
        found["data"].append(value)
    elif isinstance(value, backend.device):
        found["devices"].append(value)
    elif isinstance(value, str):
        try:
            found["devices"].append(backend.device(value))
        except RuntimeError:
            pass
    elif isinstance(value, (tuple, list)):
        for item in value:
            _stored(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _stored(item, found)
    return found


def _hook_pair(answer):
    if (not isinstance(answer, (tuple, list)) or len(answer) != 2
            or not all(callable(hook) for hook in answer)):
        raise Hint("not_hook_pair", got=_tools.describe(answer))
    return answer


def check_offload_to_cpu(answer):
    pack, unpack = _hook_pair(answer)
    generator = np.random.default_rng(10)
    for device in _devices():
        values = generator.uniform(-2, 2, size=(3, 4)).astype(np.float32)
        tensor = creation.tensor(values, device=device, requires_grad=True)
        _check_pair(pack, unpack, tensor, values)
    for device in _devices():
        _check_in_backward(pack, unpack, device, generator)


def _check_pair(pack, unpack, tensor, values):
    try:
        packed = pack(tensor)
    except RuntimeError as error:
        if "numpy()" in str(error):
            raise Hint("numpy_needs_detach") from None
        raise
    stored = _stored(packed)
    if not stored["data"]:
        raise Hint("nothing_stored")
    for data in stored["data"]:
        if _tools.is_tensor(data) and data.device.type != "cpu":
            raise Hint("still_on_device", device=str(data.device))
    if tensor.device not in stored["devices"]:
        raise Hint("forgot_device")
    try:
        restored = unpack(packed)
    except (RuntimeError, AssertionError) as error:     # no GPU: minigrad says so as PyTorch
        if tensor.device.type == "cpu" and "cuda" in str(error).lower():
            raise Hint("unpack_sends_to_cuda") from None
        raise
    _tools.require_tensor(restored, "unpack_hook")
    if restored.device != tensor.device:
        if tensor.device.type == "cpu" and restored.device.type == "cuda":
            raise Hint("unpack_sends_to_cuda")
        raise Hint("unpack_wrong_device", got=str(restored.device), expected=str(tensor.device))
    if (restored.dtype is not tensor.dtype or tuple(restored.shape) != values.shape
            or not np.array_equal(as_array(restored.cpu()), values)):
        raise Hint("unpack_changed_tensor", got=_tools.dtype_name(restored.dtype),
                   expected=_tools.dtype_name(tensor.dtype))


def _check_in_backward(pack, unpack, device, generator):
    """The hooks inside a real backward: the gradient is right and on the leaf's device."""
    values = generator.uniform(-1, 1, size=(5,)).astype(np.float32)
    x = creation.tensor(values, device=device, requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        y = (x.exp() * x).sum()
    y.backward()
    if x.grad is None or x.grad.device != x.device:
        raise Hint("unpack_wrong_device", got=str(getattr(x.grad, "device", None)),
                   expected=str(x.device))
    if not np.allclose(as_array(x.grad.cpu()), np.exp(values) * (1 + values), rtol=1e-4,
                       atol=1e-5):
        raise Hint("hooks_break_backward")


CHECKS = {"offload_to_cpu": check_offload_to_cpu}


class _OffloadTrial:
    """pack and unpack on a CPU tensor drawn from the seed (a grader has no GPU to rely on):
    what pack keeps (tensors and arrays, devices), what unpack gives back, and a backward
    under the hooks."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        shape = tuple(int(size) for size in rng.integers(2, 6, size=2))
        return uniform(rng, shape, "float32"), uniform(rng, shape[0], "float32", -1, 1)

    def run(self, answer, seed):
        pack, unpack = _hook_pair(answer)
        values, inputs = self.draw(seed)
        tensor = creation.tensor(values, requires_grad=True)
        try:
            packed = pack(tensor)
        except RuntimeError as error:
            if "numpy()" in str(error):
                raise Hint("numpy_needs_detach") from None
            raise
        stored = _stored(packed)
        report = {"data": [seen(d if _tools.is_tensor(d) else creation.tensor(d))
                           for d in stored["data"]],
                  "devices": [str(device) for device in stored["devices"]],
                  "restored": seen(unpack(packed))}
        x = creation.tensor(inputs, requires_grad=True)
        with saved_tensors_hooks(pack, unpack):
            y = (x.exp() * x).sum()
        y.backward()
        report["grad"] = seen(x.grad)
        return report

    def judge(self, report, seed):
        values, inputs = self.draw(seed)
        data = field(report, "data", list)
        if not any(_tools.same_values(value_of(entry), creation.tensor(values)) for entry in data):
            raise Hint("nothing_stored")
        for entry in data:
            if entry["device"] != "cpu":
                raise Hint("still_on_device", device=str(entry["device"])[:20])
        if "cpu" not in field(report, "devices", list):
            raise Hint("forgot_device")
        restored = tensor_of(report["restored"], "unpack_hook")
        if report["restored"]["device"] != "cpu":
            raise Hint("unpack_wrong_device", got=str(report["restored"]["device"])[:20],
                       expected="cpu")
        if (restored.dtype is not dtypes.float32 or tuple(restored.shape) != values.shape
                or not np.array_equal(as_array(restored), values)):
            raise Hint("unpack_changed_tensor", got=_tools.dtype_name(restored.dtype),
                       expected="float32")
        grad = tensor_of(report["grad"], "unpack_hook")
        if not np.allclose(as_array(grad), np.exp(inputs) * (1 + inputs), rtol=1e-4, atol=1e-5):
            raise Hint("hooks_break_backward")


TRIALS = {"offload_to_cpu": _OffloadTrial()}
