package tests

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	busv1alpha1 "volcano.sh/apis/pkg/apis/bus/v1alpha1"

	"vc-cpp.local/e2e/tests/framework"
)

// TestWebhookJobDefaults: what /jobs/mutate (with the CRD defaults before it) adds to a Job on
// CREATE (spec webhook.md §2.1): queue "default", schedulerName "volcano", maxRetry 3, task
// names "default<index>", task minAvailable = replicas (or minPartitions × partitionSize),
// task maxRetry 3, job minAvailable = sum of the tasks' minAvailable, dnsPolicy for
// hostNetwork templates, and the svc/ssh plugins that other plugins need. Values the user set
// are kept. The first case is stored and read back; the others are dry runs, whose response is
// the object as it would be stored.
func TestWebhookJobDefaults(t *testing.T) {
	f := framework.New(t, "e2e-wh-jobdef")
	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	f.WaitQueueOpen("default")

	hostNet := bareTask("net", 1)
	hostNet.Template.Spec.HostNetwork = true
	hostNetExplicit := bareTask("net2", 1)
	hostNetExplicit.Template.Spec.HostNetwork = true
	hostNetExplicit.Template.Spec.DNSPolicy = corev1.DNSDefault
	partitioned := bareTask("part", 4)
	partitioned.PartitionPolicy = &batchv1alpha1.PartitionPolicySpec{TotalPartitions: 2, PartitionSize: 2, MinPartitions: 1}
	explicitTask := bareTask("kept", 3)
	explicitTask.MinAvailable = int32p(1)
	explicitTask.MaxRetry = 7

	cases := []struct {
		name  string
		store bool
		job   *batchv1alpha1.Job
		want  func(t *testing.T, got *batchv1alpha1.Job)
	}{{
		name:  "bare job gets queue, scheduler, retries, task names and minAvailable",
		store: true,
		job:   bareJob(f.Namespace, "bare", bareTask("", 2), bareTask("", 1)),
		want: func(t *testing.T, got *batchv1alpha1.Job) {
			expectJobSpec(t, got, "default", "volcano", 3, 3)
			expectTask(t, got, 0, "default0", 2, 3)
			expectTask(t, got, 1, "default1", 1, 3)
		},
	}, {
		name: "values set by the user are kept",
		job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "explicit", explicitTask)
			j.Spec.Queue, j.Spec.SchedulerName, j.Spec.MaxRetry, j.Spec.MinAvailable = "default", "other-scheduler", 5, 2
			return j
		}(),
		want: func(t *testing.T, got *batchv1alpha1.Job) {
			expectJobSpec(t, got, "default", "other-scheduler", 5, 2)
			expectTask(t, got, 0, "kept", 1, 7)
		},
	}, {
		name: "job minAvailable sums the tasks' minAvailable, not their replicas",
		job: func() *batchv1alpha1.Job {
			a := bareTask("a", 3)
			a.MinAvailable = int32p(1)
			return bareJob(f.Namespace, "summed", a, bareTask("b", 2))
		}(),
		want: func(t *testing.T, got *batchv1alpha1.Job) {
			expectJobSpec(t, got, "default", "volcano", 3, 3)
			expectTask(t, got, 0, "a", 1, 3)
			expectTask(t, got, 1, "b", 2, 3)
		},
	}, {
		name: "partition policy sets task minAvailable to minPartitions times partitionSize",
		job:  bareJob(f.Namespace, "partitioned", partitioned),
		want: func(t *testing.T, got *batchv1alpha1.Job) {
			expectJobSpec(t, got, "default", "volcano", 3, 2)
			expectTask(t, got, 0, "part", 2, 3)
		},
	}, {
		name: "hostNetwork template gets dnsPolicy ClusterFirstWithHostNet unless one is set",
		job:  bareJob(f.Namespace, "hostnet", hostNet, hostNetExplicit),
		want: func(t *testing.T, got *batchv1alpha1.Job) {
			if len(got.Spec.Tasks) != 2 {
				t.Fatalf("tasks: %d, want 2", len(got.Spec.Tasks))
			}
			if p := got.Spec.Tasks[0].Template.Spec.DNSPolicy; p != corev1.DNSClusterFirstWithHostNet {
				t.Errorf("tasks[0] dnsPolicy %q, want %q", p, corev1.DNSClusterFirstWithHostNet)
			}
			if p := got.Spec.Tasks[1].Template.Spec.DNSPolicy; p != corev1.DNSDefault {
				t.Errorf("tasks[1] dnsPolicy %q, want the user's %q", p, corev1.DNSDefault)
			}
		},
	}, {
		name: "pytorch adds svc, hcclrank adds nothing",
		job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "pytorch", bareTask("a", 1))
			j.Spec.Plugins = map[string][]string{"pytorch": {}, "hcclrank": {}}
			return j
		}(),
		want: expectPlugins(map[string][]string{"pytorch": {}, "hcclrank": {}, "svc": {}}),
	}, {
		name: "mpi adds svc and ssh",
		job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "mpi", bareTask("master", 1), bareTask("worker", 2))
			j.Spec.Plugins = map[string][]string{"mpi": {}}
			return j
		}(),
		want: expectPlugins(map[string][]string{"mpi": {}, "svc": {}, "ssh": {}}),
	}, {
		name: "a plugin the user configured keeps its arguments",
		job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "tf", bareTask("ps", 1))
			j.Spec.Plugins = map[string][]string{"tensorflow": {}, "svc": {"--disable-network-policy=true"}}
			return j
		}(),
		want: expectPlugins(map[string][]string{"tensorflow": {}, "svc": {"--disable-network-policy=true"}}),
	}}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.store {
				got, err := jobs.Create(t.Context(), tc.job, framework.DryRunCreate())
				if err != nil {
					t.Fatalf("dry-run create: %v", err)
				}
				tc.want(t, got)
				return
			}
			if _, err := jobs.Create(t.Context(), tc.job, metav1.CreateOptions{}); err != nil {
				t.Fatalf("create: %v", err)
			}
			got, err := jobs.Get(t.Context(), tc.job.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get the stored job: %v", err)
			}
			tc.want(t, got)
		})
	}
}

func expectJobSpec(t *testing.T, j *batchv1alpha1.Job, queue, scheduler string, maxRetry, minAvailable int32) {
	t.Helper()
	s := j.Spec
	if s.Queue != queue || s.SchedulerName != scheduler || s.MaxRetry != maxRetry || s.MinAvailable != minAvailable {
		t.Errorf("job spec queue=%q schedulerName=%q maxRetry=%d minAvailable=%d, want %q %q %d %d",
			s.Queue, s.SchedulerName, s.MaxRetry, s.MinAvailable, queue, scheduler, maxRetry, minAvailable)
	}
}

func expectTask(t *testing.T, j *batchv1alpha1.Job, i int, name string, minAvailable, maxRetry int32) {
	t.Helper()
	if i >= len(j.Spec.Tasks) {
		t.Fatalf("job has %d tasks, want at least %d", len(j.Spec.Tasks), i+1)
	}
	task := j.Spec.Tasks[i]
	gotMin := "nil"
	if task.MinAvailable != nil {
		gotMin = fmt.Sprint(*task.MinAvailable)
	}
	if task.Name != name || gotMin != fmt.Sprint(minAvailable) || task.MaxRetry != maxRetry {
		t.Errorf("tasks[%d] name=%q minAvailable=%s maxRetry=%d, want %q %d %d",
			i, task.Name, gotMin, task.MaxRetry, name, minAvailable, maxRetry)
	}
}

func expectPlugins(want map[string][]string) func(t *testing.T, got *batchv1alpha1.Job) {
	return func(t *testing.T, got *batchv1alpha1.Job) {
		t.Helper()
		norm := func(m map[string][]string) map[string][]string {
			out := map[string][]string{}
			for k, v := range m {
				out[k] = append([]string{}, v...)
			}
			return out
		}
		if !reflect.DeepEqual(norm(got.Spec.Plugins), norm(want)) {
			t.Errorf("plugins %v, want %v", got.Spec.Plugins, want)
		}
	}
}

// TestWebhookJobCreateDenials: /jobs/validate refuses to store Jobs that break Volcano's
// CREATE rules, with Volcano's messages (spec webhook.md §2.2), and stores nothing.
func TestWebhookJobCreateDenials(t *testing.T) {
	f := framework.New(t, "e2e-wh-jobval")
	jobs := f.Volcano.BatchV1alpha1().Jobs(f.Namespace)
	f.WaitQueueOpen("default")

	closed := "e2e-wh-closed-" + f.Suffix
	f.CreateQueue(closed, 1)
	f.CloseQueue(t, closed)
	parent, child := "e2e-wh-jparent-"+f.Suffix, "e2e-wh-jchild-"+f.Suffix
	f.CreateQueueObject(t, newQueue(parent, "", nil, nil, nil))
	f.CreateQueueObject(t, newQueue(child, parent, nil, nil, nil))
	missing := "e2e-wh-missing-" + f.Suffix

	withQueue := func(j *batchv1alpha1.Job, q string) *batchv1alpha1.Job { j.Spec.Queue = q; return j }
	withPolicies := func(j *batchv1alpha1.Job, p ...batchv1alpha1.LifecyclePolicy) *batchv1alpha1.Job {
		j.Spec.Policies = p
		return j
	}
	withPlugins := func(j *batchv1alpha1.Job, names ...string) *batchv1alpha1.Job {
		j.Spec.Plugins = map[string][]string{}
		for _, n := range names {
			j.Spec.Plugins[n] = []string{}
		}
		return j
	}
	one := func(name string) *batchv1alpha1.Job { return bareJob(f.Namespace, name, bareTask("a", 1)) }
	policy := func(ev busv1alpha1.Event, action busv1alpha1.Action) batchv1alpha1.LifecyclePolicy {
		return batchv1alpha1.LifecyclePolicy{Event: ev, Action: action}
	}
	taskPolicies := bareTask("a", 1)
	taskPolicies.Policies = []batchv1alpha1.LifecyclePolicy{
		policy(busv1alpha1.PodFailedEvent, busv1alpha1.RestartJobAction),
		policy(busv1alpha1.PodFailedEvent, busv1alpha1.AbortJobAction),
	}
	cycleA, cycleB := bareTask("a", 1), bareTask("b", 1)
	cycleA.DependsOn = &batchv1alpha1.DependsOn{Name: []string{"b"}}
	cycleB.DependsOn = &batchv1alpha1.DependsOn{Name: []string{"a"}}
	badCPU := bareTask("a", 1)
	badCPU.Template.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")}
	taskMin := bareTask("a", 1)
	taskMin.MinAvailable = int32p(2)
	exitCode := int32(3)

	cases := []struct {
		name string
		job  *batchv1alpha1.Job
		// cacheDependent: the denial needs the webhook's queue cache to have seen the set-up.
		cacheDependent bool
		parts          []string
		policyLists    bool
	}{
		{name: "no tasks", job: bareJob(f.Namespace, "no-tasks"),
			parts: []string{"No task specified in job spec"}},
		{name: "duplicated task names", job: bareJob(f.Namespace, "dup-tasks", bareTask("worker", 1), bareTask("worker", 2)),
			parts: []string{"duplicated task name worker;"}},
		{name: "task minAvailable above its replicas", job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "task-min", taskMin)
			j.Spec.MinAvailable = 1
			return j
		}(), parts: []string{"'minAvailable' is greater than 'replicas' in task: a, job: task-min;"}},
		{name: "job minAvailable above total replicas", job: func() *batchv1alpha1.Job {
			j := bareJob(f.Namespace, "job-min", bareTask("a", 2), bareTask("b", 1))
			j.Spec.MinAvailable = 4
			return j
		}(), parts: []string{"job 'minAvailable' should not be greater than total replicas in tasks;"}},
		{name: "duplicated event across job policies", job: withPolicies(one("dup-event"),
			policy(busv1alpha1.PodFailedEvent, busv1alpha1.RestartJobAction),
			policy(busv1alpha1.PodFailedEvent, busv1alpha1.AbortJobAction)),
			parts:       []string{"1 error occurred:\n\t* duplicate event PodFailed  across different policy\n\n valid events are [", "], valid actions are ["},
			policyLists: true},
		{name: "duplicated event across task policies", job: bareJob(f.Namespace, "dup-task-event", taskPolicies),
			parts:       []string{"duplicate event PodFailed  across different policy", "valid events are ["},
			policyLists: true},
		{name: "event and exitCode in one policy", job: withPolicies(one("event-exit"),
			batchv1alpha1.LifecyclePolicy{Event: busv1alpha1.PodFailedEvent, ExitCode: &exitCode, Action: busv1alpha1.RestartJobAction}),
			parts:       []string{"* must not specify event and exitCode simultaneously"},
			policyLists: true},
		{name: "any-event policy next to another", job: withPolicies(one("any-event"),
			policy(busv1alpha1.AnyEvent, busv1alpha1.RestartJobAction),
			policy(busv1alpha1.PodEvictedEvent, busv1alpha1.AbortJobAction)),
			parts:       []string{"* if there's * here, no other policy should be here"},
			policyLists: true},
		{name: "action not allowed in a policy", job: withPolicies(one("bad-action"),
			policy(busv1alpha1.PodFailedEvent, busv1alpha1.SyncJobAction)),
			parts:       []string{`spec.policies: Invalid value: "SyncJob": invalid policy action`},
			policyLists: true},
		{name: "unknown plugin", job: withPlugins(one("unknown-plugin"), "nosuch", "env"),
			parts: []string{"unable to find job plugin: nosuch;"}},
		{name: "two unknown plugins, in any order", job: withPlugins(one("unknown-plugins"), "nosuch1", "nosuch2"),
			parts: []string{" unable to find job plugin: nosuch1;", "unable to find job plugin: nosuch2;"}},
		{name: "mpi without its master task", job: withPlugins(one("mpi-no-master"), "mpi"),
			parts: []string{"The specified mpi master task was not found"}},
		{name: "queue that does not exist", job: withQueue(one("missing-queue"), missing),
			parts: []string{fmt.Sprintf(`unable to find job queue: queue.scheduling.volcano.sh %q not found;`, missing)}},
		{name: "closed queue", job: withQueue(one("closed-queue"), closed), cacheDependent: true,
			parts: []string{fmt.Sprintf(closedQueueJobMsg, closed)}},
		{name: "root queue", job: withQueue(one("root-queue"), "root"),
			parts: []string{"can not submit job to root queue;"}},
		{name: "queue with child queues", job: withQueue(one("parent-queue"), parent), cacheDependent: true,
			parts: []string{fmt.Sprintf("can only submit job to leaf queue, queue `%s` has 1 child queues;", parent)}},
		{name: "task dependencies with a cycle", job: bareJob(f.Namespace, "cycle", cycleA, cycleB),
			parts: []string{"job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);"}},
		{name: "invalid pod template", job: bareJob(f.Namespace, "bad-template", badCPU),
			parts: []string{`spec.task[0].template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`}},
		{name: "network topology with both tier fields", job: func() *batchv1alpha1.Job {
			j := one("topology")
			j.Spec.NetworkTopology = &batchv1alpha1.NetworkTopologySpec{
				Mode: batchv1alpha1.HardNetworkTopologyMode, HighestTierAllowed: intp(1), HighestTierName: "tier1"}
			return j
		}(), parts: []string{"must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously"}},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cacheDependent {
				framework.WaitDenied(t, "the webhook to see the queue set-up", func() error {
					_, err := jobs.Create(t.Context(), tc.job, framework.DryRunCreate())
					return err
				}, framework.WebhookValidateJob, tc.parts...)
			}
			_, err := jobs.Create(t.Context(), tc.job, metav1.CreateOptions{})
			framework.ExpectDenied(t, err, framework.WebhookValidateJob, tc.parts...)
			if tc.policyLists {
				expectPolicyLists(t, err)
			}
			expectJobAbsent(t, f, tc.job.Name)
		})
	}
}
