"""In-place versions of the elementwise ops: x.exp_(), x.sin_(), x.relu_() ...

Each is its op with a forward that writes the result into x, as PyTorch's in-place
variants are: the same node name, the same backward (the op's own), and the same
saved tensors: a copy of x from before the write where the op saves its input (so
changing x later is fine), x itself where it saves its result (so changing x later
is caught by x's version counter).  Plus normal_ and uniform_, for initialising.
"""
from .. import backend
from ..surface.random import _rng
from .builtin import BuiltinFunction
from . import activations, arithmetic, division, pieces, scatter, unary, updates
from .inplace import _value_before, _write_result


def _in_place(op, name, node_name=None):
    """The in-place Function of `op` (a Function class), whose method is `name`; its node
    is named as op's, or `node_name` where PyTorch names the in-place node otherwise."""
    def forward(ctx, x, *args):
        source = _value_before(x) if ctx.needs_input_grad[0] else x
        result = op.forward(ctx, source, *args)
        _write_result(ctx, x, result.dtype, result._data)
        if getattr(ctx, "to_save", None):                   # its result is x itself now
            ctx.to_save = tuple(x if saved is result else saved for saved in ctx.to_save)
        return x
    return type(op.__name__ + "Inplace", (op,), {
        "__doc__": f"x.{name}(): x ← {name[:-1]}(x), with {op.__name__}'s backward.",
        "node_name": node_name or op.node_name, "forward": staticmethod(forward)})


IN_PLACE = {name: _in_place(op, name) for name, op in [
    ("exp_", unary.Exp), ("log_", unary.Log), ("sin_", unary.Sin), ("cos_", unary.Cos),
    ("tanh_", unary.Tanh), ("sigmoid_", unary.Sigmoid), ("relu_", unary.Relu),
    ("sqrt_", unary.Sqrt), ("abs_", unary.Abs), ("neg_", arithmetic.Neg),
    ("reciprocal_", arithmetic.Reciprocal)]}
# F.leaky_relu(x, slope, inplace=True) (no Tensor method; PyTorch names its node so)
LeakyReluInplace = _in_place(activations.LeakyRelu, "leaky_relu_", "LeakyReluBackward1")
ThresholdInplace = _in_place(activations.Threshold, "threshold_", "ThresholdBackward1")
ClampMinInplace = _in_place(unary.ClampMin, "clamp_min_")
ClampMaxInplace = _in_place(unary.ClampMax, "clamp_max_")
ClampTensorInplace = _in_place(unary.ClampTensor, "clamp_")          # tensor bounds
IndexFillInplace = _in_place(pieces.IndexFill, "index_fill_")
IndexAddInplace = _in_place(scatter.IndexAddSource, "index_add_")
HardtanhInplace = _in_place(activations.Hardtanh, "hardtanh_")
ScatterInplace = _in_place(scatter.Scatter, "scatter_")
ScatterValueInplace = _in_place(scatter.ScatterValue, "scatter_")
ScatterAddInplace = _in_place(scatter.ScatterAddSource, "scatter_add_")
AddcmulInplace = _in_place(updates.Addcmul, "addcmul_")
AddcdivInplace = _in_place(updates.Addcdiv, "addcdiv_")
LerpInplace = _in_place(updates.Lerp, "lerp_")
LerpTensorInplace = _in_place(updates.LerpTensor, "lerp_")
EluInplace = _in_place(activations.Elu, "elu_")
DivRoundingInplace = _in_place(division.DivRounding, "div_")     # div_(rounding_mode=)


class RandomFill(BuiltinFunction):
    """x.normal_(mean, std), x.uniform_(a, b): x ← random numbers;  dx = 0."""

    node_name = "NormalBackward0"

    @staticmethod
    def forward(ctx, x, draw, low, high):
        generator = _rng["generator"]
        numbers = (generator.normal(low, high, x.shape) if draw == "normal"
                   else generator.uniform(low, high, x.shape))
        return _write_result(ctx, x, x.dtype,
                             backend.move(numbers.astype(x._data.dtype), x.device))

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), None, None, None


class UniformFill(RandomFill):
    """x.uniform_(a, b): x ← numbers uniform in [a, b);  dx = 0."""

    node_name = "UniformBackward0"
