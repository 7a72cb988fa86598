module vc-cpp.local/common/cron/golden

go 1.25.0

require github.com/robfig/cron/v3 v3.0.1
