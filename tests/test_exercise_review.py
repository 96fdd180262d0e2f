"""A second set of answers, written the way a student who learned PyTorch writes them.

test_exercise_hints.py holds the first set of wrong answers.  These are new
ones, in a PyTorch student's habits (`import minigrad as torch`,
`ctx.saved_tensors[0]`, one-element tuples, `.numpy()` round trips,
`np.where`, in-place on the incoming gradient, `x.data`, `.detach()`...),
each with the hint that names its mistake, and unusual answers that are
right and must pass (other formulas, saving more than needed, new-style
`setup_context` Functions, no `@staticmethod`...).  Every answer is checked
in both languages.
"""
import collections
import heapq

import numpy as np
import pytest

import minigrad as torch
from minigrad import settings
from minigrad.autograd import Function
from minigrad.autograd.function import once_differentiable
from minigrad.autograd.graph import AccumulateGrad
from minigrad.exercises import EXERCISES, _messages, check

WRONG, RIGHT = [], []
NOTES = {}          # id(answer) -> the notes a right answer gets (an answer may be a list)


def wrong(exercise_id, key):
    """Register the decorated answer as wrong, diagnosed as `key`."""
    def register(answer):
        WRONG.append((exercise_id, answer, key))
        return answer
    return register


def right(exercise_id, notes=()):
    """Register the decorated answer as right; `notes`: the notes its Result must carry."""
    def register(answer):
        RIGHT.append((exercise_id, answer))
        NOTES[id(answer)] = tuple(notes)
        return answer
    return register


# ---------------------------------------------------------------- exp

@wrong("exp", "wrong_grad")
class ExpSavesInput(Function):
    """Saves x and multiplies by x: d/dx eˣ is eˣ, not x."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.exp(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.saved_tensors[0]


@wrong("exp", "modified_grad_output")
class ExpInPlaceOnGrad(Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        grad_output *= ctx.saved_tensors[0]
        return grad_output


@wrong("exp", "wrong_dtype")
class ExpThroughLists(Function):
    """np.exp of a Python list is float64, whatever the input's dtype."""
    @staticmethod
    def forward(ctx, x):
        y = torch.tensor(np.exp(x.tolist()))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y


@wrong("exp", "forgot_grad_output")
class ExpReturnsOutput(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.saved_tensors[0].clone()


@wrong("exp", "returned_numpy")
class ExpNumpyGrad(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.numpy() * ctx.saved_tensors[0].detach().numpy()


@wrong("exp", "raised")
class ExpNumpyInGradMode(Function):
    """.numpy() on the saved output (which requires grad) with grad mode turned back on:
    PyTorch's error, quoted."""
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        with torch.enable_grad():
            return torch.tensor(grad_output.numpy() * ctx.saved_tensors[0].numpy())


@right("exp")
class ExpNumpyOfSavedOutput(Function):
    """.numpy() on the saved output, which requires grad: allowed in a backward, whose
    grad mode is off (as in PyTorch; only a double backward would refuse it)."""
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return torch.tensor(grad_output.numpy() * ctx.saved_tensors[0].numpy())


@right("exp", notes=("exp_saved_input",))
class ExpNoStaticmethodOneTuple(Function):
    """No @staticmethod (called on the class, it still works) and a 1-tuple."""
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return (grad_output * x.exp(),)


@right("exp")
class ExpNewStyle(Function):
    @staticmethod
    def forward(x):
        return torch.exp(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.clone() * ctx.saved_tensors[0]


@wrong("exp", "raised")
class ExpTypo(Function):
    @staticmethod
    def forward(ctx, x):
        return x.expp()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


@wrong("exp", "numpy_function_on_tensor")
class ExpNpExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = np.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.saved_tensors[0]


wrong("exp", "forward_not_apply")(ExpNewStyle.apply)
wrong("exp", "not_function_class")(ExpNewStyle.apply(torch.tensor([0.5])))


# ---------------------------------------------------------------- sigmoid

@wrong("sigmoid", "wrong_sign")
class SigmoidLostChainMinus(Function):
    """d/dx of 1/(1+e⁻ˣ) without the chain rule's minus from -x."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 1 / (1 + torch.exp(-x))

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        return -grad_output * torch.exp(-x) / (1 + torch.exp(-x)) ** 2


@wrong("sigmoid", "wrong_forward")
class SigmoidClampsSaved(Function):
    """The clamp changes σ(-30) ≈ 9e-14 into 1e-7.  (Saving happens when forward
    returns, so the in-place clamp is no version error, in PyTorch neither.)"""
    @staticmethod
    def forward(ctx, x):
        y = torch.sigmoid(x)
        ctx.save_for_backward(y)
        y.clamp_(1e-7, 1 - 1e-7)        # "numerical safety", after saving
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y * (1 - y)


@wrong("sigmoid", "forgot_grad_output")
class SigmoidRecomputes(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x) * (1 - torch.sigmoid(x))


@wrong("sigmoid", "returned_numpy")
class SigmoidNumpyForward(Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + np.exp(-x.detach().numpy()))
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.sigmoid(x) * (1 - torch.sigmoid(x))


@wrong("sigmoid", "backward_args")
class SigmoidBackwardWantsX(Function):
    @staticmethod
    def forward(ctx, x):
        return torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output, x):
        return grad_output * torch.sigmoid(x) * (1 - torch.sigmoid(x))


@right("sigmoid")
class SigmoidViaTanh(Function):
    """σ(x) = (1 + tanh(x/2)) / 2, and it saves more than it needs."""
    @staticmethod
    def forward(ctx, x):
        y = (1 + (x / 2).tanh()) / 2
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        _, y = ctx.saved_tensors
        return grad_output * (y - y * y)


@right("sigmoid")
class SigmoidNumpyInside(Function):
    """numpy inside forward, wrapped back into a tensor of the input's dtype."""
    @staticmethod
    def forward(ctx, x):
        values = x.detach().numpy()
        y = torch.from_numpy((1 / (1 + np.exp(-values))).astype(values.dtype))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y * (1 - y)


# ---------------------------------------------------------------- relu

@wrong("relu", "modified_grad_output")
class ReLUZeroesGradInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_output[x <= 0] = 0
        return grad_output


@wrong("relu", "returned_numpy")
class ReLUNpWhere(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return np.where(x.detach().numpy() > 0, grad_output.numpy(), 0)


@wrong("relu", "relu_grad_at_zero")
class ReLUMaskNegative(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.relu(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.where(x < 0, torch.zeros_like(grad_output), grad_output)


@wrong("relu", "input_modified")
class ReLUSetitemOnInput(Function):
    @staticmethod
    def forward(ctx, x):
        x[x < 0] = 0
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0)


@wrong("relu", "relu_grad_where_negative")
class ReLUSignMask(Function):
    """Uses x.sign() as the mask: negative inputs get -grad_output, not 0."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * x.sign()


@wrong("relu", "timeout")
class ReLUBackwardLoops(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad, i = grad_output.clone(), 0
        while i < x.numel():          # forgot i += 1
            if x[i] <= 0:
                grad[i] = 0
        return grad


@right("relu")
class ReLUSavesOutputBoolMask(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.clamp(min=0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * (y > 0)


@right("relu")
class ReLUCloneThenZero(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.maximum(x, torch.zeros_like(x))

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x <= 0] = 0
        return grad_input


# ---------------------------------------------------------------- mul_constant

@wrong("mul_constant", "grad_for_non_tensor")
class MulConstantZeroForConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, 0


@wrong("mul_constant", "wrong_num_grads")
class MulConstantOneTuple(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return (grad_output * ctx.constant,)


@wrong("mul_constant", "forgot_grad_output")
class MulConstantFullLike(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return torch.full_like(grad_output, ctx.constant), None


@wrong("mul_constant", "wrong_grad")
class MulConstantTimesTensor(Function):
    """Multiplies by the tensor instead of the constant."""
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.save_for_backward(tensor)
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.saved_tensors[0], None


@wrong("mul_constant", "wrong_factor")
class MulConstantDivides(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output / ctx.constant, None


@right("mul_constant")
class MulConstantChecksFlags(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor.mul(constant)

    @staticmethod
    def backward(ctx, grad_output):
        grad = grad_output * ctx.constant if ctx.needs_input_grad[0] else None
        return grad, None


@right("mul_constant")
class MulConstantNewStyle(Function):
    @staticmethod
    def forward(tensor, constant):
        return constant * tensor

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.constant = inputs[1]

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.constant * grad_output, None, None      # a trailing extra None is allowed


# ---------------------------------------------------------------- add_broadcast

class _Add(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.a_shape, ctx.b_shape = a.shape, b.shape
        return a + b


@right("add_broadcast", notes=("engine_reduced",))
class AddReducesOnlyA(_Add):
    """b's gradient left in the broadcast shape: PyTorch's engine sums it down (its own
    AddBackward0 does the same), so the gradients are right; a note says who reduced it."""
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.sum_to_size(ctx.a_shape), grad_output


@wrong("add_broadcast", "size_one_dims")
class AddSumWithoutKeepdim(_Add):
    """Sums the broadcast dims away, but drops the size-1 dims (4×1 → (4,))."""
    @staticmethod
    def backward(ctx, grad_output):
        grads = []
        for shape in (ctx.a_shape, ctx.b_shape):
            grad = grad_output
            while grad.dim() > len(shape):
                grad = grad.sum(0)
            for dim, size in enumerate(shape):
                if size == 1 and grad.shape[dim] != 1:
                    grad = grad.sum(dim)
                    break
            grads.append(grad)
        return tuple(grads)


@wrong("add_broadcast", "grads_swapped")
class AddSwapsGradients(_Add):
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.sum_to_size(ctx.b_shape), grad_output.sum_to_size(ctx.a_shape)


@wrong("add_broadcast", "returned_numpy")
class AddNumpyReduce(_Add):
    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output.numpy()
        grad_b = g.reshape(-1, *ctx.b_shape).sum(0) if g.shape != ctx.b_shape else g
        return grad_output.sum_to_size(ctx.a_shape), grad_b


@wrong("add_broadcast", "forward_args")
class AddWithoutCtx(Function):
    @staticmethod
    def forward(a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


@right("add_broadcast")
class AddReducesByHand(_Add):
    @staticmethod
    def backward(ctx, grad_output):
        grads = []
        for shape in (ctx.a_shape, ctx.b_shape):
            grad = grad_output
            while grad.dim() > len(shape):
                grad = grad.sum(0)
            for dim, size in enumerate(shape):
                if size == 1:
                    grad = grad.sum(dim, keepdim=True)
            grads.append(grad)
        return tuple(grads)


@wrong("add_broadcast", "backward_returned_list")
class AddReturnsList(_Add):
    @staticmethod
    def backward(ctx, grad_output):
        return [grad_output.sum_to_size(ctx.a_shape), grad_output.sum_to_size(ctx.b_shape)]


@right("add_broadcast")
class AddNewStyleExpandAs(Function):
    @staticmethod
    def forward(a, b):
        return a.add(b) if hasattr(a, "add") else a + b

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)        # saves more than it needs

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        # sum_to_size(a.shape), not sum_to_size(*a.shape): with a 0-dim `a` PyTorch refuses
        # the call without sizes ("missing 1 required positional arguments"), as minigrad does
        return grad_output.sum_to_size(a.shape), grad_output.sum_to_size(b.shape)


# ---------------------------------------------------------------- seed_func
# PyTorch 2.13's example: w = x·z, out = x·y + y·z + w·y; every tensor backward needs
# through save_for_backward, only z (a number) on ctx.

def _seed_backward(ctx, grad_out):
    x, y = ctx.saved_tensors[:2]
    return grad_out * (y + y * ctx.z), grad_out * (x + ctx.z + x * ctx.z), None


@right("seed_func")
class FuncAsTheDocstring(Function):
    """PyTorch 2.13's save_for_backward docstring, word for word (once_differentiable too)."""
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz


@right("seed_func")
class FuncMinimal(Function):
    """Saves only what backward reads: x and y; w is recomputed."""
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y)
        ctx.z = z
        return x * y + y * z + x * z * y

    backward = staticmethod(_seed_backward)


@right("seed_func")
class FuncBuildsOutInPlace(Function):
    """Builds out in place after saving it: fine, tensors are saved when forward returns."""
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y
        ctx.save_for_backward(x, y, w, out)
        out += y * z + w * y                 # modifies the saved out
        ctx.z = z
        return out

    backward = staticmethod(_seed_backward)


@right("seed_func")
class FuncNewStyle(Function):
    @staticmethod
    def forward(x, y, z):
        return x * y + y * z + x * z * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, z = inputs
        ctx.save_for_backward(x, y, output)
        ctx.z = z

    backward = staticmethod(_seed_backward)


@right("seed_func")
class FuncKeepsNumbersInADict(Function):
    """Non-tensors in a dict on ctx: allowed, a dict of numbers is no tensor."""
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y, None)
        ctx.constants = {"z": z, "scale": 1.0}
        return x * y + y * z + x * z * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y, _ = ctx.saved_tensors
        z = ctx.constants["z"]
        return grad_out * y * (1 + z), grad_out * (x + z + x * z), None


@wrong("seed_func", "tensor_on_ctx")
class FuncTheOldDocstring(Function):
    """PyTorch 1.10's docstring: w = x·y·z kept on ctx, which 2.13's says not to do."""
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * y * z
        out = x * y + y * z + w
        ctx.save_for_backward(x, y, out)
        ctx.z = z
        ctx.w = w
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, y, out = ctx.saved_tensors
        z = ctx.z
        return grad_out * (y + y * z), grad_out * (x + z + x * z), None


@wrong("seed_func", "tensor_on_ctx")
class FuncZAsTensor(Function):
    """Keeps z as a 0-d tensor on ctx: a tensor on ctx, whatever it holds."""
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.z = torch.tensor(float(z))
        ctx.save_for_backward(x, y)
        return x * y + y * ctx.z + x * ctx.z * y

    backward = staticmethod(_seed_backward)


@wrong("seed_func", "wrong_num_grads")
class FuncTwoGrads(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, y, w, _ = ctx.saved_tensors
        return grad_out * (y + y * ctx.z), grad_out * (x + ctx.z + w)


@wrong("seed_func", "saved_then_modified")
class FuncReusesSavedY(Function):
    """Scales the saved y in place in backward to save memory: the next backward fails."""
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y)
        ctx.z = z
        return x * y + y * z + x * z * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        y *= 1 + ctx.z
        return grad_out * y, grad_out * (x + ctx.z + x * ctx.z), None


@wrong("seed_func", "inputs_on_ctx")
class FuncInputsTuple(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.inputs = (x, y)
        ctx.z = z
        return x * y + y * z + x * z * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.inputs
        return grad_out * (y + y * ctx.z), grad_out * (x + ctx.z + x * ctx.z), None


@wrong("seed_func", "forgot_grad_output")
class FuncForgetsGradOnX(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y)
        ctx.z = z
        return x * y + y * z + x * z * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        return y + y * ctx.z, grad_out * (x + ctx.z + x * ctx.z), None


@wrong("seed_func", "wrong_grad")
class FuncCopyPasteGradient(Function):
    """gx written as gy with x and y swapped, but the y·z term is not symmetric."""
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y)
        ctx.z = z
        return x * y + y * z + x * z * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        z = ctx.z
        return grad_out * (y + z + y * z), grad_out * (x + z + x * z), None


@wrong("seed_func", "forgot_w_term")
class FuncWAsAConstant(Function):
    """Differentiates as if w = x·z did not depend on x."""
    @staticmethod
    def forward(ctx, x, y, z):
        w = x * z
        ctx.save_for_backward(x, y, w)
        ctx.z = z
        return x * y + y * z + w * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y, w = ctx.saved_tensors
        return grad_out * y, grad_out * (x + ctx.z + w), None


# ---------------------------------------------------------------- tanh_saves_output

@wrong("tanh_saves_output", "saved_input_not_output")
class TanhSavesBoth(Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        _, y = ctx.saved_tensors
        return grad_output * (1 - y ** 2)


@wrong("tanh_saves_output", "output_on_ctx")
class TanhOutputOnCtx(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.y = torch.tanh(x)
        return ctx.y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * (1 - ctx.y ** 2)


@wrong("tanh_saves_output", "wrong_grad")
class TanhPrecedence(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * 1 - y ** 2


@wrong("tanh_saves_output", "saved_then_modified")
class TanhSquaresSavedInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        y.mul_(y)
        return grad_output * (1 - y)


@wrong("tanh_saves_output", "returned_numpy")
class TanhNumpyOutput(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y.numpy()

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * (1 - y * y)


@wrong("tanh_saves_output", "save_the_output")
class TanhSavesDerivative(Function):
    """Saves 1 − y² instead of y."""
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(1 - y * y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.saved_tensors[0]


@right("tanh_saves_output")
class TanhSavesDetachedOutput(Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y.detach())
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * (1 - y * y)


@right("tanh_saves_output")
class TanhNewStyle(Function):
    @staticmethod
    def forward(x):
        return torch.tanh(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output - grad_output * y.square()


@right("tanh_saves_output")
class TanhFromExp(Function):
    """tanh x = (e²ˣ − 1)/(e²ˣ + 1); saves the output (and reads it with [0])."""
    @staticmethod
    def forward(ctx, x):
        e = (2 * x).exp()
        y = (e - 1) / (e + 1)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * (1 - ctx.saved_tensors[0].pow(2))


# ---------------------------------------------------------------- inplace_relu

def _masked_backward(ctx, grad_output):
    (x,) = ctx.saved_tensors
    return grad_output * (x > 0).to(grad_output.dtype)


@wrong("inplace_relu", "mark_dirty_wrong_tensor")
class InplaceReLUMarksMask(Function):
    @staticmethod
    def forward(ctx, x):
        mask = x > 0
        x.mul_(mask)
        ctx.mark_dirty(mask)
        ctx.save_for_backward(x)
        return x

    backward = staticmethod(_masked_backward)


@wrong("inplace_relu", "not_in_place")
class InplaceReLUOutOfPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x = x.clamp(min=0)                 # rebinds the name: the input is untouched
        ctx.save_for_backward(x)
        return x

    backward = staticmethod(_masked_backward)


@wrong("inplace_relu", "return_dirty_input")
class InplaceReLUReturnsClone(Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x.clone()

    backward = staticmethod(_masked_backward)


@wrong("inplace_relu", "mask_after_clamp")
class InplaceReLUNoMask(Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


@wrong("inplace_relu", "modified_grad_output")
class InplaceReLUZeroesGrad(Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_output[x == 0] = 0
        return grad_output


@right("inplace_relu")
class InplaceReLUSavesFirst(Function):
    """Saves x before clamping (saving happens when forward returns) and masks x == 0."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        x[x < 0] = 0
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad = grad_output.clone()
        grad[x == 0] = 0
        return grad


@right("inplace_relu")
class InplaceReLUMulMask(Function):
    @staticmethod
    def forward(ctx, x):
        mask = (x > 0).to(x.dtype)
        x.mul_(mask)
        ctx.mark_dirty(x)
        ctx.mask = mask
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.mask


# ---------------------------------------------------------------- matmul

class _MatMul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b


@wrong("matmul", "grads_swapped")
class MatMulSwapped(_MatMul):
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output @ b.T if ctx.needs_input_grad[0] else None
        grad_b = a.T @ grad_output if ctx.needs_input_grad[1] else None
        return grad_b, grad_a


@wrong("matmul", "missing_grad")
class MatMulEarlyReturn(_MatMul):
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            return grad_output @ b.T, None
        return None, a.T @ grad_output


@wrong("matmul", "needs_input_grad_mixed_up")
class MatMulFlagsSwapped(_MatMul):
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output @ b.T if ctx.needs_input_grad[1] else None
        grad_b = a.T @ grad_output if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


@wrong("matmul", "matmul_transpose")
class MatMulForgotTranspose(_MatMul):
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output @ b if ctx.needs_input_grad[0] else None
        grad_b = a.T @ grad_output if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


@wrong("matmul", "forgot_grad_output")
class MatMulOnesInstead(_MatMul):
    """Uses the sum of b's rows, as if grad_output were all ones."""
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        ones = torch.ones_like(grad_output)
        grad_a = ones @ b.T if ctx.needs_input_grad[0] else None
        grad_b = a.T @ ones if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


@right("matmul")
class MatMulMmAndT(_MatMul):
    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad_output.mm(b.t()) if need_a else None,
                torch.matmul(a.t(), grad_output) if need_b else None)


@right("matmul")
class MatMulNumpyInside(Function):
    """numpy matmuls wrapped back with torch.from_numpy (dtypes kept)."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return torch.from_numpy(a.detach().numpy() @ b.detach().numpy())

    @staticmethod
    def backward(ctx, grad_output):
        a, b = (t.detach().numpy() for t in ctx.saved_tensors)
        g = grad_output.numpy()
        return (torch.from_numpy(g @ b.T) if ctx.needs_input_grad[0] else None,
                torch.from_numpy(a.T @ g) if ctx.needs_input_grad[1] else None)


# ---------------------------------------------------------------- max_with_index

def _one_hot_backward(ctx, grad_values, grad_indices):
    (indices,) = ctx.saved_tensors
    one_hot = (torch.arange(ctx.columns) == indices.reshape(-1, 1)).to(grad_values.dtype)
    return one_hot * grad_values.reshape(-1, 1)


@wrong("max_with_index", "marked_values_non_differentiable")
class MaxMarksValues(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = torch.max(x, dim=1)
        ctx.mark_non_differentiable(values)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return values, indices

    backward = staticmethod(_one_hot_backward)


@wrong("max_with_index", "forgot_grad_output")
class MaxOneHotOnly(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        return (torch.arange(ctx.columns) == indices.reshape(-1, 1)).to(grad_values.dtype)


@wrong("max_with_index", "returned_numpy")
class MaxNumpyScatter(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.shape = x.shape
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = np.zeros(ctx.shape)
        grad[np.arange(ctx.shape[0]), indices.numpy()] = grad_values.numpy()
        return grad


@wrong("max_with_index", "return_values_and_indices")
class MaxReturnsList(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return [values]

    backward = staticmethod(_one_hot_backward)


@wrong("max_with_index", "grad_not_to_argmax")
class MaxExpandsGrad(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(x)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (x,) = ctx.saved_tensors
        return grad_values.unsqueeze(1).expand_as(x).clone()


@right("max_with_index")
class MaxStarGradsRecomputes(Function):
    """`*grads`, saves x and finds the arg-max again with a comparison."""
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(x, values)
        return values, indices

    @staticmethod
    def backward(ctx, *grads):
        x, values = ctx.saved_tensors
        mask = (x == values.unsqueeze(1)).to(grads[0].dtype)
        return (mask * grads[0].unsqueeze(1),)


@right("max_with_index")
class MaxNumpyTensorGrad(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.shape, ctx.dtype = x.shape, x.dtype
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = np.zeros(ctx.shape, dtype=grad_values.numpy().dtype)
        grad[np.arange(ctx.shape[0]), indices.numpy()] = grad_values.numpy()
        return torch.from_numpy(grad), None


# ---------------------------------------------------------------- clip_grad_hook

@wrong("clip_grad_hook", "hook_modified_grad")
def clip_through_data(grad):
    grad.data.clamp_(-1, 1)
    return grad


@wrong("clip_grad_hook", "wrong_clip_range")
def clip_only_below(grad):
    return grad.clamp(min=-1)


@wrong("clip_grad_hook", "hook_returned_none")
def clip_forgets_return(grad):
    grad = grad.clamp(-1, 1)


@wrong("clip_grad_hook", "returned_numpy")
def clip_np(grad):
    return np.clip(grad, -1, 1)


@wrong("clip_grad_hook", "hook_args")
def clip_with_name(grad, name):
    return grad.clamp(-1, 1)


@wrong("clip_grad_hook", "wrong_clip_range")
def clip_normalises(grad):
    return grad / grad.abs().max()


@right("clip_grad_hook")
def clip_with_where(grad):
    return torch.where(grad > 1, 1.0, torch.where(grad < -1, -1.0, grad))


@right("clip_grad_hook")
def clip_numpy_round_trip(grad):
    return torch.from_numpy(np.clip(grad.numpy(), -1, 1))


# ---------------------------------------------------------------- pack_float16

wrong("pack_float16", "unpack_dtype")((lambda t: t.half(), lambda p: p.double()))
wrong("pack_float16", "returned_numpy")((lambda t: t.half(), lambda p: p.float().numpy()))
wrong("pack_float16", "hooks_swapped")((lambda p: p.float(), lambda t: t.half()))
wrong("pack_float16", "pack_not_half")((lambda t: t.half().float(), lambda p: p))
wrong("pack_float16", "not_hook_pair")(
    {"pack_hook": lambda t: t.half(), "unpack_hook": lambda p: p.float()})

# Every dtype through float16: the lesson says to leave the others as they are
wrong("pack_float16", "pack_other_dtypes")((lambda t: (t.detach().to(torch.float16), t.dtype),
                                            lambda packed: packed[0].to(packed[1])))
wrong("pack_float16", "pack_other_dtypes")(
    [lambda t: t.detach().numpy().astype(np.float16),
     lambda packed: torch.from_numpy(packed.astype(np.float32))])

right("pack_float16")((lambda t: (t.detach().to(torch.float16), t.dtype)
                       if t.dtype == torch.float32 else (t, None),
                       lambda packed: packed[0].float() if packed[1] else packed[0]))
right("pack_float16")([lambda t: t.detach().numpy().astype(np.float16)
                       if t.dtype == torch.float32 else t,
                       lambda packed: torch.from_numpy(packed.astype(np.float32))
                       if isinstance(packed, np.ndarray) else packed])


# ---------------------------------------------------------------- topo_order

def _sequence_nr(node):
    number = node._sequence_nr
    return number() if callable(number) else number


def _children(node):
    return [child for child, _ in node.next_functions if child is not None]


@wrong("topo_order", "reversed_order")
def topo_post_order(output):
    order, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        for child in _children(node):
            visit(child)
        order.append(node)
    visit(output.grad_fn)
    return order


@wrong("topo_order", "not_nodes")
def topo_keeps_edges(output):
    order, stack, seen = [], [(output.grad_fn, 0)], set()
    while stack:
        edge = stack.pop()
        order.append(edge)                      # (node, index) pairs, not nodes
        for child in edge[0].next_functions:
            if child[0] is not None and child[0] not in seen:
                seen.add(child[0])
                stack.append(child)
    return order


@wrong("topo_order", "wrong_order")
def topo_bfs_with_seen(output):
    order, queue, seen = [], collections.deque([output.grad_fn]), {output.grad_fn}
    while queue:
        node = queue.popleft()
        order.append(node)
        for child in _children(node):
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return order


@wrong("topo_order", "not_engine_order")
def topo_kahn_fifo(output):
    counts = collections.Counter()
    stack, seen = [output.grad_fn], {output.grad_fn}
    while stack:
        for child in _children(stack.pop()):
            counts[child] += 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    order, queue = [], collections.deque([output.grad_fn])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child in _children(node):
            counts[child] -= 1
            if counts[child] == 0:
                queue.append(child)
    return order


@wrong("topo_order", "timeout")
def topo_never_pops(output):
    order, stack = [], [output.grad_fn]
    while stack:
        node = stack[-1]                      # forgot to pop: the same node forever
        if node not in order:
            order.append(node)
            stack.extend(_children(node))
    return order


@right("topo_order")
def topo_kahn_heap_names(output):
    """Kahn's algorithm, ties broken by a counter, the deque of parents reversed."""
    counts, stack = {output.grad_fn: 0}, [output.grad_fn]
    while stack:
        for child in _children(stack.pop()):
            if child not in counts:
                counts[child] = 0
                stack.append(child)
            counts[child] += 1
    ready, order, tick = [(-_sequence_nr(output.grad_fn), 0, output.grad_fn)], [], 0
    while ready:
        _, _, node = heapq.heappop(ready)
        order.append(node)
        for child in _children(node):
            counts[child] -= 1
            if counts[child] == 0:
                tick += 1
                heapq.heappush(ready, (-_sequence_nr(child), tick, child))
    return order


@right("topo_order")
def topo_sorted_ready_list(output):
    """A plain list as the ready queue, re-sorted (stably) before every pop."""
    counts = collections.Counter()
    stack, seen = [output.grad_fn], {output.grad_fn}
    while stack:
        for child in _children(stack.pop()):
            counts[child] += 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    ready, order = [output.grad_fn], []
    while ready:
        ready.sort(key=_sequence_nr, reverse=True)      # stable: ties keep push order
        node = ready.pop(0)
        order.append(node)
        for child in _children(node):
            counts[child] -= 1
            if counts[child] == 0:
                ready.append(child)
    return order


# ---------------------------------------------------------------- count_dependencies

def _counts(output, root_count=0, skip=lambda node: False, skip_none=True):
    root = output.grad_fn
    counts, stack = {root: root_count}, [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if (child is None and skip_none) or skip(child):
                continue
            if child not in counts:
                counts[child] = 0
                if child is not None:
                    stack.append(child)
            counts[child] += 1
    return counts


wrong("count_dependencies", "root_not_zero")(lambda output: _counts(output, root_count=1))
wrong("count_dependencies", "missing_accumulate_grad")(
    lambda output: _counts(output, skip=lambda n: isinstance(n, AccumulateGrad)))
wrong("count_dependencies", "not_nodes")(lambda output: _counts(output, skip_none=False))
wrong("count_dependencies", "not_nodes")(
    lambda output: {node.name(): n for node, n in _counts(output).items()})


@wrong("count_dependencies", "missing_nodes")
def counts_one_level(output):
    counts = {output.grad_fn: 0}
    for child in _children(output.grad_fn):
        counts[child] = counts.get(child, 0) + 1
    return counts


@right("count_dependencies")
def counts_with_counter(output):
    counts, seen = collections.Counter({output.grad_fn: 0}), {output.grad_fn}
    queue = collections.deque([output.grad_fn])
    while queue:
        for child in _children(queue.popleft()):
            counts[child] += 1
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return counts


@right("count_dependencies")
def counts_by_defaultdict(output):
    counts = collections.defaultdict(int)
    counts[output.grad_fn] = 0
    todo, done = [output.grad_fn], set()
    while todo:
        node = todo.pop()
        if node in done:
            continue
        done.add(node)
        for child in _children(node):
            counts[child] += 1
            todo.append(child)
    return counts


# ---------------------------------------------------------------- second_derivative

@wrong("second_derivative", "x_detached")
def second_detaches(f, x):
    x = x.detach()
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), x)
    return second


@wrong("second_derivative", "forgot_create_graph")
def second_backward_twice(f, x):
    f(x).sum().backward()
    first = x.grad
    x.grad = None
    first.sum().backward()
    return x.grad


@wrong("second_derivative", "grad_returns_tuple")
def second_keeps_tuple(f, x):
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    return torch.autograd.grad(first.sum(), x)


@wrong("second_derivative", "grad_returns_tuple")
def second_does_not_unpack(f, x):
    first = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    return torch.autograd.grad(first.sum(), x)[0]


@wrong("second_derivative", "wrong_second_derivative")
def second_wrt_first(f, x):
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), first)
    return second


@wrong("second_derivative", "needs_sum")
def second_forgets_second_sum(f, x):
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first, x)
    return second


@right("second_derivative")
def second_with_grad_outputs(f, x):
    y = f(x)
    (first,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)
    (second,) = torch.autograd.grad(first, x, grad_outputs=torch.ones_like(first))
    return second


@right("second_derivative")
def second_on_own_copy(f, x):
    x = x.detach().clone().requires_grad_(True)
    f(x).sum().backward(create_graph=True)
    (second,) = torch.autograd.grad(x.grad.sum(), x)
    return second.detach()


# ---------------------------------------------------------------- cube_double_backward

@wrong("cube_double_backward", "backward_not_differentiable")
class CubeDetaches(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x.detach() ** 2


@wrong("cube_double_backward", "saved_intermediate")
class CubeSavesSquare(Function):
    @staticmethod
    def forward(ctx, x):
        square = x * x
        ctx.save_for_backward(square)
        return square * x

    @staticmethod
    def backward(ctx, grad_output):
        (square,) = ctx.saved_tensors
        return 3 * grad_output * square


@wrong("cube_double_backward", "wrong_grad")
class CubeSquareRule(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.pow(3)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x


@wrong("cube_double_backward", "backward_not_differentiable")
class CubeThroughData(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x.data * x.data


@wrong("cube_double_backward", "wrong_sign")
class CubeMinus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return -3 * x * x * grad_output


@right("cube_double_backward")
class CubeNewStylePow(Function):
    @staticmethod
    def forward(x):
        return x.pow(3)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return x.pow(2).mul(3).mul(grad_output)


@right("cube_double_backward")
class CubeSavesInputAndOutput(Function):
    @staticmethod
    def forward(ctx, x):
        y = x * x * x
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        x, _ = ctx.saved_tensors
        return grad_output * (x * x * 3)


# ---------------------------------------------------------------- linear

class _Linear(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        return x @ weight.T + bias


@right("linear", notes=("engine_reduced",))
class LinearBiasKeepdim(_Linear):
    """The bias's gradient as (1, out): its shape (out,) broadcasts to that, so PyTorch's
    engine sums it down, and the gradient is right."""
    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        return (grad_output @ weight if need_x else None,
                grad_output.T @ x if need_w else None,
                grad_output.sum(0, keepdim=True) if need_b else None)


@wrong("linear", "wrong_grad_shape")
class LinearBiasWrongDim(_Linear):
    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        return (grad_output @ weight if need_x else None,
                grad_output.T @ x if need_w else None,
                grad_output.sum(1) if need_b else None)


@wrong("linear", "wrong_factor")
class LinearBiasMean(_Linear):
    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        return (grad_output @ weight if need_x else None,
                grad_output.T @ x if need_w else None,
                grad_output.mean(0) if need_b else None)


@wrong("linear", "missing_grad")
class LinearNoBiasGrad(_Linear):
    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        need_x, need_w, _ = ctx.needs_input_grad
        return (grad_output @ weight if need_x else None,
                grad_output.T @ x if need_w else None, None)


@wrong("linear", "ignored_needs_input_grad")
class LinearAlwaysGradX(_Linear):
    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        return (grad_output.mm(weight),
                grad_output.T @ x if ctx.needs_input_grad[1] else None,
                grad_output.sum(0) if ctx.needs_input_grad[2] else None)


@right("linear")
class LinearMmSavesBias(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight, bias)
        return x.mm(weight.t()) + bias.unsqueeze(0)

    @staticmethod
    def backward(ctx, grad_output):
        x, weight, bias = ctx.saved_tensors
        grad_x = grad_w = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_w = grad_output.t().mm(x)
        if ctx.needs_input_grad[2]:
            grad_b = grad_output.sum(0)
        return grad_x, grad_w, grad_b


@right("linear")
class LinearNewStyle(Function):
    @staticmethod
    def forward(x, weight, bias):
        return torch.matmul(x, weight.T) + bias

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, _ = inputs
        ctx.save_for_backward(x, weight)

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        return (grad_output @ weight if ctx.needs_input_grad[0] else None,
                (x.T @ grad_output).T if ctx.needs_input_grad[1] else None,
                grad_output.sum(dim=0) if ctx.needs_input_grad[2] else None)


# ---------------------------------------------------------------- graph_edges

@wrong("graph_edges", "unknown_node")
def graph_edges_with_the_output():
    """Names the output out as a node: its node is AddBackward0."""
    return {("out", "AddBackward0"), ("AddBackward0", "ExpBackward0"),
            ("AddBackward0", "DivBackward0"), ("ExpBackward0", "MulBackward0"),
            ("MulBackward0", "a"), ("MulBackward0", "b"), ("DivBackward0", "SinBackward0"),
            ("SinBackward0", "a")}


@wrong("graph_edges", "missing_edges")
def graph_edges_tree():
    """Stops at the first branch it meets."""
    return [("AddBackward0", "ExpBackward0"), ("ExpBackward0", "MulBackward0"),
            ("MulBackward0", "a"), ("MulBackward0", "b")]


@wrong("graph_edges", "extra_edges")
def graph_edges_through_k():
    """Joins SinBackward0 straight to b."""
    return {("AddBackward0", "ExpBackward0"), ("AddBackward0", "DivBackward0"),
            ("ExpBackward0", "MulBackward0"), ("MulBackward0", "a"), ("MulBackward0", "b"),
            ("DivBackward0", "SinBackward0"), ("SinBackward0", "a"), ("SinBackward0", "b")}


@wrong("graph_edges", "edges_format")
def graph_edges_as_a_dict():
    return {"AddBackward0": ["ExpBackward0", "DivBackward0"]}


@right("graph_edges")
def graph_edges_as_lists():
    """Lists instead of tuples, in another order, with an edge written twice."""
    return [["SinBackward0", "a"], ["DivBackward0", "SinBackward0"], ["MulBackward0", "b"],
            ["MulBackward0", "a"], ["ExpBackward0", "MulBackward0"], ["AddBackward0", "DivBackward0"],
            ["AddBackward0", "ExpBackward0"], ["SinBackward0", "a"]]


@right("graph_edges")
def graph_edges_walked():
    """Computes the answer with the walk of lesson 01 instead of predicting it."""
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    y = (a * b).exp() + a.sin() / torch.tensor(4.0)
    names = {id(a): "a", id(b): "b"}
    edges, stack = set(), [y.grad_fn]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is not None:
                label = names[id(next_node.variable)] if hasattr(next_node, "variable") \
                    else next_node.name()
                edges.add((node.name(), label))
                stack.append(next_node)
    return edges


# ---------------------------------------------------------------- separate_gradients

@wrong("separate_gradients", "retain_the_first")
def separate_retaining_the_second_only(loss_a, loss_b, w):
    loss_a.backward()
    grad_a = w.grad.clone()
    w.grad = None
    loss_b.backward(retain_graph=True)
    return grad_a, w.grad


@wrong("separate_gradients", "gradients_accumulated")
def separate_with_zero_grad_forgotten(loss_a, loss_b, w):
    (grad_a,) = torch.autograd.grad(loss_a, w, retain_graph=True)
    loss_a.backward(retain_graph=True)          # also fills w.grad with the first gradient
    loss_b.backward()
    return grad_a, w.grad


@wrong("separate_gradients", "gradients_swapped")
def separate_in_the_order_they_ran(loss_a, loss_b, w):
    loss_b.backward(retain_graph=True)
    grad_b = w.grad.clone()
    w.grad = None
    loss_a.backward()
    return grad_b, w.grad        # in the order they ran, not in the order asked for


@wrong("separate_gradients", "kept_the_graph")
def separate_with_autograd_grad_retaining_both(loss_a, loss_b, w):
    (grad_a,) = torch.autograd.grad(loss_a, w, retain_graph=True)
    (grad_b,) = torch.autograd.grad(loss_b, w, retain_graph=True)
    return grad_a, grad_b


@wrong("separate_gradients", "two_gradients_expected")
def separate_stacked(loss_a, loss_b, w):
    (grad_a,) = torch.autograd.grad(loss_a, w, retain_graph=True)
    (grad_b,) = torch.autograd.grad(loss_b, w)
    return torch.stack([grad_a, grad_b])


@right("separate_gradients")
def separate_with_zero_(loss_a, loss_b, w):
    """Zeroes .grad in place between the passes, as optimizer.zero_grad(set_to_none=False)."""
    loss_a.backward(retain_graph=True)
    grad_a = w.grad.detach().clone()
    w.grad.zero_()
    loss_b.backward()
    return grad_a, w.grad


@right("separate_gradients")
def separate_b_first(loss_a, loss_b, w):
    """Runs loss_b first; the last backward (loss_a's) frees the graph."""
    (grad_b,) = torch.autograd.grad(loss_b, w, retain_graph=True)
    (grad_a,) = torch.autograd.grad(loss_a, w)
    return grad_a, grad_b


# ---------------------------------------------------------------- offload_to_cpu

def pack_as_numpy(tensor):
    return tensor.detach().cpu().numpy()


wrong("offload_to_cpu", "forgot_device")((pack_as_numpy, lambda packed: torch.from_numpy(packed)))
wrong("offload_to_cpu", "unpack_sends_to_cuda")(
    (lambda tensor: (tensor.device, tensor.cpu()), lambda packed: packed[1].cuda()))
wrong("offload_to_cpu", "returned_numpy")(
    (lambda tensor: (tensor.device, tensor.detach().cpu().numpy()), lambda packed: packed[1]))
wrong("offload_to_cpu", "not_hook_pair")(lambda tensor: (tensor.device, tensor.cpu()))
wrong("offload_to_cpu", "nothing_stored")((lambda tensor: str(tensor.device), lambda packed: packed))
right("offload_to_cpu")(
    (lambda tensor: {"device": str(tensor.device), "data": tensor.detach().cpu().numpy()},
     lambda packed: torch.tensor(packed["data"]).to(packed["device"])))
right("offload_to_cpu")(
    (lambda tensor: (tensor.device, tensor.to("cpu")), lambda packed: packed[1].to(packed[0])))


# ---------------------------------------------------------------- mul_jvp

class MulJvpTuple(Function):
    """Returns one tangent per input, as backward returns one gradient per input."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_forward(a, b)
        return a * b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return b * a_t, a * b_t


class MulJvpSavedForBackward(Function):
    """Saves with save_for_backward, as for a backward, and reads saved_tensors in jvp."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t


class MulJvpWithoutTangents(Function):
    """Returns the partial derivatives, forgetting the tangents."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = a, b
        return a * b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        return ctx.b + ctx.a


class MulOnlyBackward(Function):
    """Writes a backward (lesson 04's habit) where forward mode needs a jvp."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return grad_output * b, grad_output * a


wrong("mul_jvp", "one_tangent_per_output")(MulJvpTuple)
wrong("mul_jvp", "jvp_reads_saved_for_backward")(MulJvpSavedForBackward)
wrong("mul_jvp", "forgot_tangents")(MulJvpWithoutTangents)
wrong("mul_jvp", "no_jvp")(MulOnlyBackward)


@right("mul_jvp")
class MulJvpAndBackward(Function):
    """Both modes: saves for forward and for backward, attributes for nothing."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_forward(a, b)
        ctx.save_for_backward(a, b)
        return torch.mul(a, b)

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return b * a_t + b_t * a

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return grad_output * b, grad_output * a


@right("mul_jvp")
class MulJvpAttributes(Function):
    """Keeps a and b as ctx attributes, as the tutorial's Exp keeps its result."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = a, b
        return a * b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        result = a_t * ctx.b + ctx.a * b_t
        del ctx.a, ctx.b
        return result


# ---------------------------------------------------------------- the tests

# ---------------------------------------------------------------- jacobian

@right("jacobian")
def jacobian_with_autograd_grad(f, x):
    """torch.autograd.grad with grad_outputs, one basis vector per output, one forward."""
    y = f(x)
    eye = torch.eye(y.numel(), dtype=x.dtype)
    return torch.stack([torch.autograd.grad(y, x, grad_outputs=e, retain_graph=True)[0]
                        for e in eye])


@right("jacobian")
def jacobian_with_zero_(f, x):
    """x.grad.zero_() between the rows, as an optimizer's zero_grad(set_to_none=False)."""
    rows = []
    for i in range(f(x).numel()):
        if x.grad is not None:
            x.grad.zero_()
        out = f(x)
        out.backward(torch.nn.functional.one_hot(torch.tensor(i), out.numel()).to(x.dtype))
        rows.append(x.grad.clone())
    return torch.stack(rows)


@wrong("jacobian", "jacobian_every_row_the_sum")
def jacobian_keeps_x_grad(f, x):
    """Clears .grad once, then keeps x.grad itself in every row: one tensor, added to."""
    x.grad = None
    rows = []
    for i in range(f(x).numel()):
        v = torch.zeros(f(x).numel(), dtype=x.dtype)
        v[i] = 1
        f(x).backward(v)
        rows.append(x.grad)
    return torch.stack(rows)


@wrong("jacobian", "jacobian_accumulated")
def jacobian_forgets_to_clear(f, x):
    y = f(x)
    rows = []
    for i in range(len(y)):
        v = torch.zeros_like(y)
        v[i] = 1
        y.backward(v, retain_graph=True)
        rows.append(x.grad.detach().clone())
    return torch.stack(rows)


@wrong("jacobian", "jacobian_transposed")
def jacobian_by_columns(f, x):
    return torch.stack([torch.autograd.grad(f(x), x, grad_outputs=e)[0]
                        for e in torch.eye(f(x).numel(), dtype=x.dtype)], dim=1)


@wrong("jacobian", "returned_numpy")
def jacobian_as_numpy(f, x):
    return np.stack([torch.autograd.grad(f(x), x, e)[0].numpy()
                     for e in torch.eye(f(x).numel(), dtype=x.dtype)])


# ---------------------------------------------------------------- backpropagate

def _topo(output):
    import exercise_answers
    return exercise_answers.topo_order(output)


@right("backpropagate")
def backpropagate_with_buffers_per_edge(output, inputs):
    """Buffers keyed (node, output_nr) as the engine's InputBuffer; no no_grad (recording
    while calling nodes only makes the gradients carry a grad_fn)."""
    buffers = {(output.grad_fn, 0): torch.ones_like(output)}
    grads = {}
    for node in _topo(output):
        grad = buffers.pop((node, 0), None)
        if grad is None:
            continue
        if type(node).__name__ == "AccumulateGrad":
            grads[node.variable] = grad
            continue
        result = node(grad)
        result = result if isinstance(result, tuple) else (result,)
        for (child, nr), g in zip(node.next_functions, result):
            if child is not None and g is not None:
                key = (child, nr)
                buffers[key] = g if key not in buffers else buffers[key] + g
    return [grads.get(t) for t in inputs]


@right("backpropagate")
def backpropagate_zeros_for_unused(output, inputs):
    """Zeros for an input the output does not depend on, as materialize_grads=True gives."""
    received = {output.grad_fn: [torch.ones_like(output)]}
    leaves = {}
    with torch.no_grad():
        for node in _topo(output):
            arrived = received.pop(node, [])
            if not arrived:
                continue
            total = arrived[0]
            for g in arrived[1:]:
                total = total + g
            if hasattr(node, "variable"):
                leaves[id(node.variable)] = total
                continue
            out = node(total)
            for (child, _), g in zip(node.next_functions, out if isinstance(out, tuple) else [out]):
                if child is not None and g is not None:
                    received.setdefault(child, []).append(g)
    return [leaves.get(id(t), torch.zeros_like(t)) for t in inputs]


@wrong("backpropagate", "add_the_gradients")
def backpropagate_overwrites(output, inputs):
    received, leaves = {output.grad_fn: torch.ones_like(output)}, {}
    for node in _topo(output):
        grad = received.get(node)
        if grad is None:
            continue
        if hasattr(node, "variable"):
            leaves[id(node.variable)] = grad
            continue
        out = node(grad)
        for (child, _), g in zip(node.next_functions, out if isinstance(out, tuple) else [out]):
            if child is not None:
                received[child] = g
    return [leaves.get(id(t)) for t in inputs]


@wrong("backpropagate", "leaf_not_found")
def backpropagate_compares_with_equal(output, inputs):
    """Finds leaves with ==, which compares values element by element: never True here."""
    received, found = {output.grad_fn: torch.ones_like(output)}, []
    with torch.no_grad():
        for node in _topo(output):
            grad = received.pop(node, None)
            if grad is None:
                continue
            if hasattr(node, "variable"):
                found.append((node.variable, grad))
                continue
            out = node(grad)
            for (child, _), g in zip(node.next_functions, out if isinstance(out, tuple) else [out]):
                if child is not None and g is not None:
                    received[child] = received[child] + g if child in received else g
    return [next((g for v, g in found if bool((v == t).all()) and v.data_ptr() == -1), None)
            for t in inputs]


@wrong("backpropagate", "used_the_engine")
def backpropagate_with_backward(output, inputs):
    for t in inputs:
        t.grad = None
    output.backward()
    return [t.grad for t in inputs]


@wrong("backpropagate", "one_gradient_per_input")
def backpropagate_returns_a_dict(output, inputs):
    import exercise_answers
    return dict(enumerate(exercise_answers.backpropagate(output, inputs)))


# ---------------------------------------------------------------- batched_matmul

@right("batched_matmul")
class BatchedMatMulWithMT(Function):
    """Tensor.mT, and needs_input_grad, as PyTorch's extending notes write a backward."""
    @staticmethod
    def forward(ctx, A, B):
        ctx.save_for_backward(A, B)
        return torch.matmul(A, B)

    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        grad_A = grad_B = None
        if ctx.needs_input_grad[0]:
            grad_A = grad_output.matmul(B.mT)
        if ctx.needs_input_grad[1]:
            grad_B = A.mT.matmul(grad_output).sum(dim=0)
        return grad_A, grad_B


@right("batched_matmul")
class BatchedMatMulAsOneMatrix(Function):
    """Folds the batch into the rows: Σᵢ AᵢᵀGᵢ is one product of the stacked matrices."""
    @staticmethod
    def forward(ctx, A, B):
        ctx.save_for_backward(A, B)
        return A @ B

    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        k, m = B.shape
        return grad_output @ B.T, A.reshape(-1, k).T @ grad_output.reshape(-1, m)


@right("batched_matmul", notes=("engine_reduced",))
class BatchedMatMulLeavesTheSum(Function):
    """Returns B's gradient per matrix, (b, k, m): the engine sums it down to (k, m)."""
    @staticmethod
    def forward(ctx, A, B):
        ctx.save_for_backward(A, B)
        return A @ B

    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        return grad_output @ B.T, A.transpose(1, 2) @ grad_output


class _Batched(Function):
    @staticmethod
    def forward(ctx, A, B):
        ctx.save_for_backward(A, B)
        return A @ B


@wrong("batched_matmul", "matmul_shapes_dont_fit")
class BatchedMatMulGTimesA(_Batched):
    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        return grad_output @ B.T, grad_output @ A


@wrong("batched_matmul", "batch_not_summed")
class BatchedMatMulLastOnly(_Batched):
    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        return grad_output @ B.T, A[-1].T @ grad_output[-1]


@wrong("batched_matmul", "batched_grad_transposed")
class BatchedMatMulGradATransposed(_Batched):
    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        return (grad_output @ B.T).transpose(1, 2), (A.mT @ grad_output).sum(0)


@wrong("batched_matmul", "forgot_grad_output")
class BatchedMatMulOnesForG(_Batched):
    @staticmethod
    def backward(ctx, grad_output):
        A, B = ctx.saved_tensors
        ones = torch.ones_like(grad_output)
        return ones @ B.T, (A.mT @ grad_output).sum(0)


# ---------------------------------------------------------------- straight_through

@right("straight_through")
def round_ste_with_torch_round(x):
    return x + (torch.round(x) - x).detach()


@right("straight_through")
def round_ste_detach_then_add(x):
    """The rounding error as a constant: x.round() - x computed without a graph."""
    with torch.no_grad():
        error = x.round() - x
    return x + error


class RoundSTE(Function):
    """A custom Function: PyTorch accepts it, and so does the check."""
    @staticmethod
    def forward(ctx, x):
        return x.round()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


right("straight_through")(RoundSTE.apply)


@wrong("straight_through", "ste_zero_gradient")
def round_ste_torch_round(x):
    return torch.round(x)


@wrong("straight_through", "ste_no_gradient")
def round_ste_in_no_grad(x):
    with torch.no_grad():
        return x.round()


@wrong("straight_through", "ste_not_rounded")
def round_ste_forgets_the_rounding(x):
    return x + (x - x).detach()


@right("straight_through")
def round_ste_adds_x_minus_its_copy(x):
    """round(x) plus a zero whose gradient is 1: x - x.detach()."""
    return x.round() + x - x.detach()


@wrong("straight_through", "ste_wrong_gradient")
def round_ste_doubles(x):
    return x.round() + 2 * (x - x.detach())


# ---------------------------------------------------------------- newton_sqrt

@right("newton_sqrt")
def newton_sqrt_with_set_grad_enabled(a):
    x = a.detach().clone()
    with torch.set_grad_enabled(False):
        while torch.any(torch.abs(x * x - a) > 1e-10 * a):
            x = 0.5 * (x + a / x)
    return 0.5 * (x + a / x)


@right("newton_sqrt")
def newton_sqrt_detaching_each_step(a):
    """Records every step but keeps only the last in the graph (x detached each time)."""
    x = a
    while ((x * x - a).abs() > 1e-10 * a).any():
        x = (x.detach() + a / x.detach()) / 2
    return x


@wrong("newton_sqrt", "newton_graph_grows")
def newton_sqrt_recorded(a):
    x = a.clone()
    while ((x * x - a).abs() > 1e-10 * a).any():
        x = (x + a / x) / 2
    return x


@wrong("newton_sqrt", "newton_no_graph")
@torch.no_grad()
def newton_sqrt_all_in_no_grad(a):
    x = a.clone()
    while ((x * x - a).abs() > 1e-10 * a).any():
        x = (x + a / x) / 2
    return (x + a / x) / 2


@wrong("newton_sqrt", "newton_not_converged")
def newton_sqrt_three_steps(a):
    with torch.no_grad():
        x = a.clone()
        for _ in range(3):
            x = (x + a / x) / 2
    return (x + a / x) / 2


@wrong("newton_sqrt", "newton_no_sqrt")
def newton_sqrt_pow(a):
    return a ** 0.5


@wrong("newton_sqrt", "newton_cut_off")
def newton_sqrt_detached_a(a):
    with torch.no_grad():
        x = a.clone()
        while ((x * x - a).abs() > 1e-10 * a).any():
            x = (x + a / x) / 2
    last = (x + a.detach() / x) / 2
    return last + a - a


# ---------------------------------------------------------------- finetune_head

def _model(x, p):
    return torch.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


@right("finetune_head")
def finetune_with_an_optimizer_like_loop(params, x, y, steps, lr):
    """requires_grad_(False) on the body, zero_() of the head's grads, p.sub_ in no_grad."""
    for p in (params["w1"], params["b1"]):
        p.requires_grad_(False)
    head = [params["w2"], params["b2"]]
    losses = []
    for _ in range(steps):
        for p in head:
            if p.grad is not None:
                p.grad.zero_()
        loss = torch.nn.functional.mse_loss(_model(x, params), y)
        loss.backward()
        losses.append(loss.detach())
        with torch.no_grad():
            for p in head:
                p.sub_(lr * p.grad)
    return losses


@right("finetune_head")
def finetune_body_features_once(params, x, y, steps, lr):
    """The body's features computed once, in no_grad (the body's flags left alone)."""
    with torch.no_grad():
        h = torch.tanh(x @ params["w1"] + params["b1"])
    losses = []
    for _ in range(steps):
        loss = ((h @ params["w2"] + params["b2"] - y) ** 2).mean()
        losses.append(float(loss))
        w2_grad, b2_grad = torch.autograd.grad(loss, [params["w2"], params["b2"]])
        with torch.no_grad():
            params["w2"] -= lr * w2_grad
            params["b2"] -= lr * b2_grad
    return losses


@wrong("finetune_head", "body_recorded")
def finetune_detaches_features(params, x, y, steps, lr):
    losses = []
    for _ in range(steps):
        h = torch.tanh(x @ params["w1"] + params["b1"]).detach()
        loss = ((h @ params["w2"] + params["b2"] - y) ** 2).mean()
        losses.append(loss.item())
        params["w2"].grad = params["b2"].grad = None
        loss.backward()
        with torch.no_grad():
            params["w2"] -= lr * params["w2"].grad
            params["b2"] -= lr * params["b2"].grad
    return losses


@wrong("finetune_head", "body_changed")
def finetune_trains_everything(params, x, y, steps, lr):
    losses = []
    for _ in range(steps):
        loss = ((_model(x, params) - y) ** 2).mean()
        losses.append(loss.item())
        for p in params.values():
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params.values():
                p -= lr * p.grad
    return losses


@wrong("finetune_head", "head_replaced")
def finetune_rebinds_the_head(params, x, y, steps, lr):
    for p in (params["w1"], params["b1"]):
        p.requires_grad_(False)
    losses = []
    for _ in range(steps):
        loss = ((_model(x, params) - y) ** 2).mean()
        losses.append(loss.item())
        w2, b2 = torch.autograd.grad(loss, [params["w2"], params["b2"]])
        params["w2"] = params["w2"] - lr * w2
        params["b2"] = params["b2"] - lr * b2
    return losses


@wrong("finetune_head", "finetune_losses_wrong")
def finetune_records_losses_after_the_update(params, x, y, steps, lr):
    for p in (params["w1"], params["b1"]):
        p.requires_grad_(False)
    losses = []
    for _ in range(steps):
        loss = ((_model(x, params) - y) ** 2).mean()
        params["w2"].grad = params["b2"].grad = None
        loss.backward()
        with torch.no_grad():
            params["w2"] -= lr * params["w2"].grad
            params["b2"] -= lr * params["b2"].grad
            losses.append(((_model(x, params) - y) ** 2).mean().item())
    return losses


@wrong("finetune_head", "finetune_head_wrong")
def finetune_skips_the_last_update(params, x, y, steps, lr):
    """Every loss is right, but the loop stops before the last step's update."""
    for p in (params["w1"], params["b1"]):
        p.requires_grad_(False)
    losses = []
    for step in range(steps):
        loss = ((_model(x, params) - y) ** 2).mean()
        losses.append(loss.item())
        if step == steps - 1:
            break
        w2, b2 = torch.autograd.grad(loss, [params["w2"], params["b2"]])
        with torch.no_grad():
            params["w2"] -= lr * w2
            params["b2"] -= lr * b2
    return losses


@wrong("finetune_head", "losses_format")
def finetune_returns_the_last_loss(params, x, y, steps, lr):
    import exercise_answers
    return exercise_answers.finetune_head(params, x, y, steps, lr)[-1]


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    monkeypatch.setattr(settings, "lang", None)
    monkeypatch.delenv("MINIGRAD_LANG", raising=False)


def _label(answer):
    return getattr(answer, "__name__", type(answer).__name__)


def test_every_exercise_has_new_wrong_answers_and_unusual_right_ones():
    wrong_counts = collections.Counter(exercise_id for exercise_id, _, _ in WRONG)
    right_counts = collections.Counter(exercise_id for exercise_id, _ in RIGHT)
    # the later lessons' exercises are reviewed in test_exercise_review_advanced.py
    from test_exercise_review_advanced import EXERCISE_IDS as REVIEWED_THERE
    assert set(wrong_counts) == set(EXERCISES) - set(REVIEWED_THERE), wrong_counts
    assert min(wrong_counts.values()) >= 4, wrong_counts
    assert set(right_counts) == set(wrong_counts) and min(right_counts.values()) >= 2


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer, key", WRONG,
                         ids=[f"{i}-{k}-{_label(a)}" for i, a, k in WRONG])
def test_a_wrong_answer_is_diagnosed(exercise_id, answer, key, lang):
    result = check(exercise_id, answer, lang=lang, time_limit=1 if key == "timeout" else 5)
    assert not result.passed and result.status == "failed"
    assert result.hint == key, result
    assert result.message == _messages.text(key, lang, **result.params)
    other = "zh" if lang == "en" else "en"
    assert result.message != _messages.text(key, other, **result.params)
    assert f"<code>{exercise_id}</code>" in result._repr_html_()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer", RIGHT,
                         ids=[f"{i}-{_label(a)}" for i, a in RIGHT])
def test_an_unusual_right_answer_passes_within_the_checks_time_limit(exercise_id, answer, lang):
    """check() stops an answer that runs past its time limit (a "timeout" hint), so passing is
    passing in time; how many seconds it took depends on the machine and its load."""
    result = check(exercise_id, answer, lang=lang)
    assert result.passed, result
    assert result.notes == NOTES[id(answer)]
    assert result.message == "\n\n".join(
        [_messages.text("passed", lang)] + [_messages.text(note, lang) for note in result.notes])


def test_an_exception_is_quoted_once_without_a_doubled_full_stop():
    result = check("exp", ExpNumpyInGradMode, lang="en")
    assert "Can't call numpy() on Tensor that requires grad" in result.params["error"]
    assert ".." not in result.message


def test_the_html_shows_code_spans_and_escapes_the_rest():
    result = check("exp", ExpTypo, lang="zh")
    page = result._repr_html_()
    assert "&#x27;Tensor&#x27; object has no attribute &#x27;expp&#x27;" in page
    assert "`" not in page and "<script" not in page
    unsolved = check("exp", type("Stub", (Function,), {
        "forward": staticmethod(lambda ctx, x: _not_implemented()),
        "backward": staticmethod(lambda ctx, g: g)}), lang="en")
    assert unsolved.status == "not_solved"
    assert "<code>raise NotImplementedError()</code>" in unsolved._repr_html_()


def _not_implemented():
    raise NotImplementedError()


def test_a_backward_that_modifies_grad_output_really_corrupts_a_shared_gradient():
    """Why modified_grad_output is a mistake: an add hands one tensor to both branches."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([0.0, 0.0], requires_grad=True)
    other_branch = y.exp()                   # created first, so it runs after the answer
    (ExpInPlaceOnGrad.apply(x) + other_branch).backward(torch.tensor([1.0, 1.0]))
    assert np.allclose(x.grad.numpy(), np.exp([1.0, 2.0]))
    assert np.allclose(y.grad.numpy(), np.exp([1.0, 2.0]))   # should be e⁰ = 1: corrupted
