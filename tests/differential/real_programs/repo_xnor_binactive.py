"""XNOR-Net's BinActive, an autograd Function of the old style (forward and backward
are methods of an instance, self.save_for_backward): PyTorch 2 refuses the old call
BinActive()(x) and warns about the instance; apply() on the class still works.

Source: https://github.com/jiecaoyu/XNOR-Net-PyTorch/blob/master/CIFAR_10/models/nin.py
        (jiecaoyu/XNOR-Net-PyTorch: BinActive)
Adapted: the call is caught; the class is then used through apply.
"""
import torch


class BinActive(torch.autograd.Function):
    '''
    Binarize the input activations and calculate the mean across channel dimension.
    '''
    def forward(self, input):
        self.save_for_backward(input)
        size = input.size()
        mean = torch.mean(input.abs(), 1, keepdim=True)
        input = input.sign()
        return input, mean

    def backward(self, grad_output, grad_output_mean):
        input, = self.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input.ge(1)] = 0
        grad_input[input.le(-1)] = 0
        return grad_input


x = torch.tensor([[-2.0, -0.5, 0.3, 1.5]], requires_grad=True)
try:
    out, mean = BinActive()(x)
except RuntimeError as error:
    print("RuntimeError:", error)
out, mean = BinActive.apply(x)
print(out, mean)
(out * torch.tensor([1., 2., 3., 4.])).sum().backward()
print(x.grad)
