"""The gradient checkpointing of OpenAI's guided-diffusion (copied into Stable
Diffusion's ldm): forward runs the function under no_grad and keeps its inputs; backward
runs it again under enable_grad on detached copies (view_as) and calls autograd.grad
with allow_unused=True for the inputs and the parameters.

Source: https://github.com/openai/guided-diffusion/blob/main/guided_diffusion/nn.py
        (openai/guided-diffusion, guided_diffusion/nn.py: checkpoint, CheckpointFunction)
Adapted: th is torch; a small function of an input and two parameters stands in for a
network block.
"""
import torch as th


def checkpoint(func, inputs, params, flag):
    if flag:
        args = tuple(inputs) + tuple(params)
        return CheckpointFunction.apply(func, len(inputs), *args)
    else:
        return func(*inputs)


class CheckpointFunction(th.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, length, *args):
        ctx.run_function = run_function
        ctx.input_tensors = list(args[:length])
        ctx.input_params = list(args[length:])
        with th.no_grad():
            output_tensors = ctx.run_function(*ctx.input_tensors)
        return output_tensors

    @staticmethod
    def backward(ctx, *output_grads):
        ctx.input_tensors = [x.detach().requires_grad_(True) for x in ctx.input_tensors]
        with th.enable_grad():
            shallow_copies = [x.view_as(x) for x in ctx.input_tensors]
            output_tensors = ctx.run_function(*shallow_copies)
        input_grads = th.autograd.grad(
            output_tensors,
            ctx.input_tensors + ctx.input_params,
            output_grads,
            allow_unused=True,
        )
        del ctx.input_tensors
        del ctx.input_params
        del output_tensors
        return (None, None) + input_grads


w = th.randn(3, 3, requires_grad=True)
unused = th.randn(2, requires_grad=True)


def block(x):
    return (x @ w).tanh() * 2


x = th.randn(4, 3, requires_grad=True)
y = checkpoint(block, (x,), (w, unused), True)
print(y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(x.grad)
print(w.grad)
print(unused.grad)
checkpointed_w_grad = w.grad.clone()
x2 = x.detach().requires_grad_()
w.grad = None
block(x2).sum().backward()
print(th.allclose(x2.grad, x.grad), th.allclose(w.grad, checkpointed_w_grad))
