import paddle, paddle.nn as nn
class ConvNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2D(1, 8, 3)
        self.head = nn.Linear(8, 10)
paddle.save(ConvNet().state_dict(), "pretrained.pdparams")
