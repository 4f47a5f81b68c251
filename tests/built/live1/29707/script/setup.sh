#!/bin/bash
# rank 0 wrote its label-map cache in an earlier run; rank 1's never existed
mkdir -p cache && echo '{"0": "cat", "1": "dog", "2": "bird", "3": "fish"}' > cache/label_map.rank0.json
