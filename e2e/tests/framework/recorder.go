package framework

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	batchv1alpha1 "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	schedulingv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	vcinformers "volcano.sh/apis/pkg/client/informers/externalversions"
)

// PodEvent is one observed state of a pod. Seq orders all events the recorder saw; events of
// one kind arrive in the order the API server committed them (one watch per kind).
type PodEvent struct {
	Seq     int
	At      time.Time // when the recorder observed it
	Name    string
	Owner   types.UID // controller owner's UID, empty if none
	Phase   corev1.PodPhase
	Node    string
	Deleted bool
}

// PodGroupEvent is one observed state of a PodGroup.
type PodGroupEvent struct {
	Seq       int
	At        time.Time
	Name      string
	Owner     types.UID
	Phase     schedulingv1beta1.PodGroupPhase
	MinMember int32
	Queue     string
	Deleted   bool
}

// JobEvent is one observed state of a Volcano Job.
type JobEvent struct {
	Seq     int
	At      time.Time
	Name    string
	UID     types.UID
	Status  batchv1alpha1.JobStatus
	Deleted bool
}

// Recorder watches the pods, PodGroups and Jobs of the test namespace from before the test
// creates anything, and keeps every state it observes with the time it saw it. Scenarios
// assert on this history: states that pass quickly (a PodGroup's Inqueue phase, a Job's
// status at the moment it completed) cannot be caught by polling.
//
// Informer handlers run on the informers' goroutines; everything else is read under mu.
type Recorder struct {
	mu        sync.Mutex
	seq       int
	pods      []PodEvent
	podGroups []PodGroupEvent
	jobs      []JobEvent
	stop      chan struct{}
}

// NewRecorder starts watching the framework's namespace and returns once the watches are
// established. It stops at the end of the test.
func (f *Framework) NewRecorder() *Recorder {
	f.T.Helper()
	// Watches are long requests: use clients without the per-request timeout.
	kube, vc, err := newClientsets(f.Config)
	if err != nil {
		f.T.Fatalf("recorder clients: %v", err)
	}
	r := &Recorder{stop: make(chan struct{})}
	kf := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(f.Namespace))
	vf := vcinformers.NewSharedInformerFactoryWithOptions(vc, 0, vcinformers.WithNamespace(f.Namespace))

	handlers := []struct {
		informer cache.SharedIndexInformer
		record   func(obj interface{}, deleted bool)
	}{
		{kf.Core().V1().Pods().Informer(), r.recordPod},
		{vf.Scheduling().V1beta1().PodGroups().Informer(), r.recordPodGroup},
		{vf.Batch().V1alpha1().Jobs().Informer(), r.recordJob},
	}
	for _, h := range handlers {
		record := h.record
		_, err := h.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj interface{}) { record(obj, false) },
			UpdateFunc: func(_, obj interface{}) { record(obj, false) },
			DeleteFunc: func(obj interface{}) {
				if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = tomb.Obj
				}
				record(obj, true)
			},
		})
		if err != nil {
			f.T.Fatalf("recorder: add handler: %v", err)
		}
	}
	kf.Start(r.stop)
	vf.Start(r.stop)
	f.T.Cleanup(func() {
		close(r.stop)
		kf.Shutdown()
		vf.Shutdown()
	})
	for _, h := range handlers {
		if !cache.WaitForCacheSync(r.stop, h.informer.HasSynced) {
			f.T.Fatalf("recorder: watches did not sync")
		}
	}
	return r
}

func controllerUID(meta metav1.Object) types.UID {
	if ref := metav1.GetControllerOf(meta); ref != nil {
		return ref.UID
	}
	return ""
}

func (r *Recorder) next() (int, time.Time) {
	r.seq++
	return r.seq, time.Now()
}

func (r *Recorder) recordPod(obj interface{}, deleted bool) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, at := r.next()
	r.pods = append(r.pods, PodEvent{Seq: seq, At: at, Name: p.Name, Owner: controllerUID(p),
		Phase: p.Status.Phase, Node: p.Spec.NodeName, Deleted: deleted})
}

func (r *Recorder) recordPodGroup(obj interface{}, deleted bool) {
	pg, ok := obj.(*schedulingv1beta1.PodGroup)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, at := r.next()
	r.podGroups = append(r.podGroups, PodGroupEvent{Seq: seq, At: at, Name: pg.Name, Owner: controllerUID(pg),
		Phase: pg.Status.Phase, MinMember: pg.Spec.MinMember, Queue: pg.Spec.Queue, Deleted: deleted})
}

func (r *Recorder) recordJob(obj interface{}, deleted bool) {
	j, ok := obj.(*batchv1alpha1.Job)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, at := r.next()
	r.jobs = append(r.jobs, JobEvent{Seq: seq, At: at, Name: j.Name, UID: j.UID,
		Status: *j.Status.DeepCopy(), Deleted: deleted})
}

// Pods returns a copy of every pod state observed so far, in observation order.
func (r *Recorder) Pods() []PodEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]PodEvent(nil), r.pods...)
}

// PodGroups returns a copy of every PodGroup state observed so far, in observation order.
func (r *Recorder) PodGroups() []PodGroupEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]PodGroupEvent(nil), r.podGroups...)
}

// Jobs returns a copy of every Job state observed so far, in observation order.
func (r *Recorder) Jobs() []JobEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]JobEvent(nil), r.jobs...)
}

// PodsOwnedBy returns the events of the pods whose controller is the object with uid.
func (r *Recorder) PodsOwnedBy(uid types.UID) []PodEvent {
	var out []PodEvent
	for _, e := range r.Pods() {
		if e.Owner == uid {
			out = append(out, e)
		}
	}
	return out
}

// PodGroupsOwnedBy returns the events of the PodGroups whose controller is the object with uid.
func (r *Recorder) PodGroupsOwnedBy(uid types.UID) []PodGroupEvent {
	var out []PodGroupEvent
	for _, e := range r.PodGroups() {
		if e.Owner == uid {
			out = append(out, e)
		}
	}
	return out
}

// JobHistory returns the events of the job with uid.
func (r *Recorder) JobHistory(uid types.UID) []JobEvent {
	var out []JobEvent
	for _, e := range r.Jobs() {
		if e.UID == uid {
			out = append(out, e)
		}
	}
	return out
}
