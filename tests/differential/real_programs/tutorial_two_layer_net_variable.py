"""Learning PyTorch with Examples, "PyTorch: Defining new autograd functions" as it
was written for PyTorch 0.3 (and is still copied in blogs and translations): Variable,
.type(dtype) with a legacy tensor type, updates through .data, and loss.data[0], which
PyTorch 0.4 turned into an error on a 0-dim tensor.

Source: https://pytorch.org/tutorials/beginner/examples_autograd/two_layer_net_custom_function.html
        (pytorch/tutorials, beginner_source/examples_autograd/two_layer_net_custom_function.py,
        its 2017 form)
Adapted: dtype = torch.FloatTensor (the CPU line of the source), sizes 16, 50, 20, 5.
"""
import torch
from torch.autograd import Variable


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


dtype = torch.FloatTensor

N, D_in, H, D_out = 16, 50, 20, 5

x = Variable(torch.randn(N, D_in).type(dtype), requires_grad=False)
y = Variable(torch.randn(N, D_out).type(dtype), requires_grad=False)

w1 = Variable(torch.randn(D_in, H).type(dtype), requires_grad=True)
w2 = Variable(torch.randn(H, D_out).type(dtype), requires_grad=True)

learning_rate = 1e-6
for t in range(5):
    relu = MyReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.data)
    loss.backward()
    w1.data -= learning_rate * w1.grad.data
    w2.data -= learning_rate * w2.grad.data
    w1.grad.data.zero_()
    w2.grad.data.zero_()

print(loss.data[0])
