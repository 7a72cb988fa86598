package tests

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"

	"vc-cpp.local/e2e/tests/framework"
)

// controllerCounter reads one series of the controller's /metrics (0 while it does not exist).
func controllerCounter(c *framework.LocalCluster, series string) (float64, error) {
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%s/metrics", c.Var("CONTROLLERS_METRICS_PORT")))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		return 0, nil
	}
	return strconv.ParseFloat(string(m[1]), 64)
}
