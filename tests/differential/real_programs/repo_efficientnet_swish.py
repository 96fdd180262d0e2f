"""The memory-efficient Swish of EfficientNet-PyTorch: a custom Function saving only its
input and recomputing the sigmoid in backward (ctx.saved_variables, the deprecated name,
as the repository's earlier versions and their many copies read it).

Source: https://github.com/lukemelas/EfficientNet-PyTorch/blob/master/efficientnet_pytorch/utils.py
        (lukemelas/EfficientNet-PyTorch, efficientnet_pytorch/utils.py: SwishImplementation)
Adapted: MemoryEfficientSwish's forward is called as a function; gradcheck is added.
"""
import torch


class SwishImplementation(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i * torch.sigmoid(i)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i = ctx.saved_variables[0]
        sigmoid_i = torch.sigmoid(i)
        return grad_output * (sigmoid_i * (1 + i * (1 - sigmoid_i)))


x = torch.randn(2, 4, requires_grad=True)
y = SwishImplementation.apply(x)
y.sum().backward()
print(y)
print(x.grad)
print(torch.allclose(y, torch.nn.functional.silu(x)))
print(torch.autograd.gradcheck(SwishImplementation.apply,
                               (torch.randn(3, dtype=torch.double, requires_grad=True),)))
