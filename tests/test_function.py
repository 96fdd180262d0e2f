"""autograd.Function and its ctx: the API students write against."""
import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd.function import Function, once_differentiable


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


def test_custom_function_value_gradient_and_node():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    assert y.grad_fn.name() == "ExpBackward"
    assert y.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    y.sum().backward()
    assert np.allclose(x.grad.tolist(), np.exp([0.0, 1.0]))


def test_ctx_keeps_non_tensor_attributes_and_needs_input_grad():
    seen = {}

    class Scale(Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.k = k
            seen["needs"] = ctx.needs_input_grad
            return x * y * k

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None, None

    x = torch.tensor([1.0], requires_grad=True)
    Scale.apply(x, torch.tensor([2.0]), 3).sum().backward()
    assert seen["needs"] == (True, False, False)
    assert x.grad.item() == 3.0


def test_save_for_backward_rejects_non_tensors_and_calls_outside_forward():
    class SavesInt(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 1

    with pytest.raises(TypeError, match="argument 1 is of type int"):
        SavesInt.apply(torch.tensor([1.0], requires_grad=True))

    class SavesInBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            ctx.save_for_backward(grad)
            return grad

    with pytest.raises(RuntimeError, match="only be called from forward"):
        SavesInBackward.apply(torch.tensor([1.0], requires_grad=True)).sum().backward()


def test_backward_returning_numpy_is_explained():
    class ReturnsNumpy(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad.numpy() * 2

    with pytest.raises((RuntimeError, TypeError), match="numpy.ndarray"):
        ReturnsNumpy.apply(torch.tensor([1.0], requires_grad=True)).sum().backward()


def test_wrong_number_and_shape_of_gradients():
    class TooMany(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 1, got 2\)"):
        TooMany.apply(x).sum().backward()

    class Broadcast(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return grad.expand(3, 2)        # broadcastable: summed back, as in PyTorch

    Broadcast.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_a_function_is_built_in_by_its_base_class_not_by_its_module_name():
    """A Function is trusted as built-in only if it derives from BuiltinFunction: one
    defined in a module named like ops/ is still a custom Function, whose backward is
    checked; every op in minigrad/ops says it is built-in."""
    from minigrad.core.function import Function as CoreFunction
    from minigrad.ops.builtin import BuiltinFunction

    class Impostor(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    Impostor.__module__ = "minigrad.ops.student"
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients"):
        Impostor.apply(x).sum().backward()
    stack, found = list(CoreFunction.__subclasses__()), []
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("minigrad.ops."):
            found.append(cls)
    assert len(found) > 40
    assert [c for c in found if not issubclass(c, BuiltinFunction) and c is not Impostor] == []


def test_returning_an_input_unchanged_gives_a_new_tensor():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    x = torch.tensor([1.0], requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and y.grad_fn.name() == "IdentityBackward"
    assert y._version_counter is x._version_counter


def test_keyword_arguments_setup_context_and_once_differentiable():
    class Power(Function):
        @staticmethod
        def forward(x, exponent=2):
            return x ** exponent

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, exponent = inputs
            ctx.save_for_backward(x)
            ctx.exponent = exponent

        @staticmethod
        @once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * ctx.exponent * x ** (ctx.exponent - 1), None

    x = torch.tensor([2.0], requires_grad=True)
    y = Power.apply(x, exponent=3)
    assert y.item() == 8.0
    y.backward()
    assert x.grad.item() == 12.0


def test_instantiating_a_function_warns_like_pytorch():
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        Exp()


def test_integer_outputs_are_not_differentiable():
    class WithIndex(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, torch.tensor([1, 0])

        @staticmethod
        def backward(ctx, grad, grad_index):
            return grad * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    doubled, index = WithIndex.apply(x)
    assert doubled.requires_grad and not index.requires_grad
