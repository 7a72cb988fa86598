module vc-cpp.local/common/go/golden

go 1.25.0

require sigs.k8s.io/yaml v1.6.0

require go.yaml.in/yaml/v2 v2.4.3 // indirect
