"""minigrad.nn: only `functional` - the losses and activations PyTorch's autograd
tutorials call.  Layers (`nn.Linear`, `nn.Module`) and optimizers are outside
minigrad's scope: it teaches autograd, and writes its models with plain tensors."""
from . import functional

__all__ = ["functional"]
