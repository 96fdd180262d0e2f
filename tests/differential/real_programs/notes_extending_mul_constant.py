"""Extending PyTorch, "Extending torch.autograd": MulConstant, a Function with a
non-tensor argument whose gradient is None; and the combined forward(ctx, ...) form of
LinearFunction.

Source: https://pytorch.org/docs/2.13/notes/extending.html#extending-torch-autograd
        (pytorch/pytorch, docs/source/notes/extending.rst)
Adapted: inputs and a backward call are added.
"""
import torch
from torch.autograd import Function


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


x = torch.tensor([1., 2., 3.], requires_grad=True)
y = MulConstant.apply(x, 5.5)
print(y)
y.sum().backward()
print(x.grad)

a = torch.randn(2, 3, requires_grad=True)
w = torch.randn(4, 3, requires_grad=True)
out = LinearFunction.apply(a, w)
(out ** 2).sum().backward()
print(a.grad)
print(w.grad)
print(torch.allclose(w.grad, 2 * out.detach().t().mm(a.detach())))
