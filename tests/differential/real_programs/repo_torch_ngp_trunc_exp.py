"""torch-ngp's truncated exponential (also in many NeRF codes): exp in forward, a
gradient computed with the input clamped to [-15, 15]; forward and backward carry the
torch.cuda.amp custom_fwd / custom_bwd decorators.

Source: https://github.com/ashawkey/torch-ngp/blob/main/activation.py
        (ashawkey/torch-ngp, activation.py: _trunc_exp)
Adapted: inputs and a backward are added (on the CPU the decorators only run the
methods, autocast being off).
"""
import torch
from torch.autograd import Function
from torch.cuda.amp import custom_bwd, custom_fwd


class _trunc_exp(Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)  # cast to float32
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.exp(x)

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        x = ctx.saved_tensors[0]
        return g * torch.exp(x.clamp(-15, 15))


trunc_exp = _trunc_exp.apply

x = torch.tensor([-20., 0., 1., 20.], requires_grad=True)
y = trunc_exp(x)
y.sum().backward()
print(y)
print(x.grad)
