"""Extending PyTorch, "Extending torch.autograd": LinearFunction with a separate
setup_context, applied and checked with gradcheck.

Source: https://pytorch.org/docs/2.13/notes/extending.html#extending-torch-autograd
        (pytorch/pytorch, docs/source/notes/extending.rst)
Adapted: smaller inputs (4x5 and 3x5) for gradcheck; a bias is added to one call.
"""
import torch
from torch.autograd import Function, gradcheck


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

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


linear = LinearFunction.apply

input = (torch.randn(4, 5, dtype=torch.double, requires_grad=True),
         torch.randn(3, 5, dtype=torch.double, requires_grad=True), None)
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)

x = torch.randn(2, 5, requires_grad=True)
w = torch.randn(3, 5, requires_grad=True)
b = torch.randn(3, requires_grad=True)
out = linear(x, w, b)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
