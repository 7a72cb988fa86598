package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

const (
	// setupTimeout bounds the preparation of a fresh namespace.
	setupTimeout = 60 * time.Second
	// pollInterval is how often namespace set-up and deletion re-read their state.
	pollInterval = 500 * time.Millisecond
)

// poll calls cond every pollInterval until it reports done, or fails when ctx ends, with what
// cond last said it saw.
func poll(ctx context.Context, what string, cond func(context.Context) (bool, string, error)) error {
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	var seen string
	var lastErr error
	for {
		done, s, err := cond(ctx)
		if err == nil && done {
			return nil
		}
		if err != nil {
			lastErr = err
		} else {
			seen, lastErr = s, nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for %s: last seen: %s; last error: %v", what, seen, lastErr)
		case <-ticker.C:
		}
	}
}

// createNamespace creates ns, labelled with the placement label so that run.sh finds the
// leftovers of an interrupted run, and waits for its default ServiceAccount: until it exists the
// ServiceAccount admission plugin rejects pods, which would count against whoever creates first.
func createNamespace(ctx context.Context, kube kubernetes.Interface, ns string, p placement) error {
	obj := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: ns, Labels: map[string]string{p.key: p.value},
	}}
	if _, err := kube.CoreV1().Namespaces().Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create namespace %s (it must not exist yet): %w", ns, err)
	}
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	return poll(ctx, "the default ServiceAccount of "+ns, func(ctx context.Context) (bool, string, error) {
		_, err := kube.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, "not yet created", nil
		}
		return err == nil, "present", err
	})
}

func runDeleteNamespace(args []string) error {
	fs := flag.NewFlagSet("delete-namespace", flag.ContinueOnError)
	var common commonFlags
	common.register(fs, 5*time.Minute)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	c, err := newClients(common.kubeconfig, -1, 0)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, common.timeout)
	defer cancelTimeout()
	return deleteNamespace(ctx, c.kube, common.namespace)
}

// deleteNamespace deletes ns and waits until it is gone, which the namespace controller allows
// only once every pod in it is gone. A namespace that does not exist is already deleted.
func deleteNamespace(ctx context.Context, kube kubernetes.Interface, ns string) error {
	start := time.Now()
	err := kube.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete namespace %s: %w", ns, err)
	}
	err = poll(ctx, "namespace "+ns+" to be gone", func(ctx context.Context) (bool, string, error) {
		obj, err := kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, "gone", nil
		}
		if err != nil {
			return false, "", err
		}
		pods, err := countPods(ctx, kube, ns)
		if err != nil {
			return false, "", err
		}
		return false, fmt.Sprintf("phase=%s pods=%s conditions=%s", obj.Status.Phase, pods,
			namespaceConditions(obj)), nil
	})
	if err != nil {
		return err
	}
	logf("namespace %s deleted in %.1fs", ns, time.Since(start).Seconds())
	return nil
}

// countPods counts the pods of ns with a one-item list, so that polling a namespace of
// thousands of pods does not transfer them all each time.
func countPods(ctx context.Context, kube kubernetes.Interface, ns string) (string, error) {
	list, err := kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return "", err
	}
	n := int64(len(list.Items))
	if list.RemainingItemCount != nil {
		n += *list.RemainingItemCount
	} else if list.Continue != "" {
		return fmt.Sprintf("%d+", n), nil
	}
	return fmt.Sprint(n), nil
}

// namespaceConditions lists the true conditions of a terminating namespace, which say what
// its deletion is waiting for.
func namespaceConditions(ns *corev1.Namespace) string {
	var out []string
	for _, c := range ns.Status.Conditions {
		if c.Status == corev1.ConditionTrue {
			out = append(out, fmt.Sprintf("%s(%s)", c.Type, c.Message))
		}
	}
	return fmt.Sprint(out)
}
