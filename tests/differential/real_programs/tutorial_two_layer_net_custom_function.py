"""Learning PyTorch with Examples, "PyTorch: Defining new autograd functions" (the
two-layer-net version) -- MyReLU as a custom Function (clone, then grad_input[input <
0] = 0), trained with w -= lr * w.grad and w.grad.zero_() under no_grad.

Source: https://pytorch.org/tutorials/beginner/examples_autograd/two_layer_net_custom_function.html
        (pytorch/tutorials, beginner_source/examples_autograd/two_layer_net_custom_function.py)
Adapted: sizes N, D_in, H, D_out = 16, 50, 20, 5 and 30 steps (time).
"""
import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


dtype = torch.float
device = torch.device("cpu")

N, D_in, H, D_out = 16, 50, 20, 5

x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)

w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(30):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
