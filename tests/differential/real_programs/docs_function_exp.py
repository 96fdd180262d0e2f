"""torch.autograd.Function, its docstring's example: Exp saving its result, used through
apply.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.Function
        (pytorch/pytorch, torch/autograd/function.py)
Adapted: an input, a backward and prints are added.
"""
import torch
from torch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


input = torch.tensor([0., 1., 2.], requires_grad=True)
output = Exp.apply(input)
print(output)
print(output.grad_fn.name(), output.grad_fn.next_functions)
output.sum().backward()
print(input.grad)
print(torch.autograd.gradcheck(Exp.apply, (torch.tensor([0.5, -1.], dtype=torch.double,
                                                         requires_grad=True),)))
