package framework

import (
	"fmt"
	"os"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The identity the cluster's webhook runs under: VC_ADMISSION_SA ("namespace/name", exported by
// run-e2e.sh: ours runs under the role we ship, renamed vc-cpp-admission, Volcano's binary under
// Volcano's development role, the chart's pods under the chart's role), else Volcano's name.
var AdmissionServiceAccountNamespace, AdmissionServiceAccountName = admissionServiceAccount()

func admissionServiceAccount() (string, string) {
	if ns, name, ok := strings.Cut(os.Getenv("VC_ADMISSION_SA"), "/"); ok && ns != "" && name != "" {
		return ns, name
	}
	return "volcano-system", "volcano-admission"
}

// AdmissionCanGetNamespace asks the API server whether the webhook's identity may GET the
// Namespace ns (what /podgroups/mutate does to read the namespace's default queue).
func (f *Framework) AdmissionCanGetNamespace(ns string) (bool, error) {
	sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User:   "system:serviceaccount:" + AdmissionServiceAccountNamespace + ":" + AdmissionServiceAccountName,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + AdmissionServiceAccountNamespace, "system:authenticated"},
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Verb: "get", Resource: "namespaces", Name: ns,
		},
	}}
	out, err := f.Kube.AuthorizationV1().SubjectAccessReviews().Create(ctx(), sar, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	return out.Status.Allowed, nil
}

// GrantAdmissionNamespaceGet lets the webhook's identity GET this test's namespace only (a
// ClusterRole limited by resourceNames), waits until the authorizer says so, and revokes the
// grant at t's cleanup. Volcano's development RBAC, which the cluster gives Volcano's binary,
// does not let the webhook read namespaces (its Helm chart does when /podgroups/mutate is
// enabled); the role we ship does.
func (f *Framework) GrantAdmissionNamespaceGet(t testing.TB) {
	t.Helper()
	name := "e2e-admission-ns-" + f.Suffix
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{""}, Resources: []string{"namespaces"},
			Verbs: []string{"get"}, ResourceNames: []string{f.Namespace},
		}},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects: []rbacv1.Subject{{
			Kind: rbacv1.ServiceAccountKind, Namespace: AdmissionServiceAccountNamespace, Name: AdmissionServiceAccountName,
		}},
	}
	rbac := f.Kube.RbacV1()
	if _, err := rbac.ClusterRoles().Create(ctx(), role, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterRole %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := rbac.ClusterRoles().Delete(ctx(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("cleanup: delete ClusterRole %s: %v", name, err)
		}
	})
	if _, err := rbac.ClusterRoleBindings().Create(ctx(), binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterRoleBinding %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := rbac.ClusterRoleBindings().Delete(ctx(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("cleanup: delete ClusterRoleBinding %s: %v", name, err)
		}
	})
	WaitFor(t, "the webhook may GET namespace "+f.Namespace, QueueReadyTimeout, func() (bool, string, error) {
		ok, err := f.AdmissionCanGetNamespace(f.Namespace)
		return ok, fmt.Sprintf("allowed=%v", ok), err
	})
}
