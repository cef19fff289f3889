package delivery_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/store"
)

// Environment of a crash-test child: the test binary run again as a bot
// that delivers what the database owes to the fakes at the URL.
const (
	childDB   = "KEPBOT_DELIVERY_CHILD_DB"
	childURL  = "KEPBOT_DELIVERY_CHILD_URL"
	childUnit = "KEPBOT_DELIVERY_CHILD_UNIT"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(childDB); path != "" {
		os.Exit(deliverAll(path, os.Getenv(childURL), os.Getenv(childUnit)))
	}
	os.Exit(m.Run())
}

// deliverAll is the child: it queues the digests the knowledge owes (again,
// as a restarted bot does), says STARTED, runs a worker until every
// delivery is sent or dead, says DONE and exits 0. Its log, JSON lines on stdout, names each
// delivery it found in doubt.
func deliverAll(path, url, unitText string) int {
	unit, err := time.ParseDuration(unitText)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	db, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer db.Close()
	out := &childOut{}
	cfg := workerConfig(url, unit, lineMetrics{out: out})
	cfg.Log = zerolog.New(out)
	cfg.Limits["slack"] = delivery.Limits{ChannelGap: unit, Workspace: rateOf(50, unit*100), WorkspaceBurst: 5}
	cfg.Limits["discord"] = delivery.Limits{ChannelGap: unit, Platform: rateOf(60, unit*100), PlatformBurst: 5}
	w, err := delivery.New(db.Outbox(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := trigger(db, w.Notify).OnKnowledgeChanged(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("STARTED")
	go w.Run(ctx)
	for {
		time.Sleep(20 * time.Millisecond)
		all, err := db.Outbox().ListDeliveries(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		open := len(all) == 0
		for _, d := range all {
			open = open || d.State == digest.DeliveryPending || d.State == digest.DeliverySending
		}
		if !open {
			fmt.Println("DONE")
			return 0
		}
	}
}

// lineMetrics writes what the child's worker counts of restarts (in
// doubt, possible duplicates) as JSON lines on stdout: a killed child's
// counters die with it, its lines do not.
type lineMetrics struct {
	delivery.NopMetrics
	out *childOut
}

func (m lineMetrics) InDoubt(p string) {
	m.out.metric(fmt.Sprintf(`{"metric":"in_doubt/%s"}`+"\n", p))
}

func (m lineMetrics) DuplicatePossible(p, reason string) {
	m.out.metric(fmt.Sprintf(`{"metric":"duplicate_possible/%s/%s"}`+"\n", p, reason))
}

// childOut is the child's stdout for its log and its metric lines. The
// worker counts a delivery in doubt and then logs it; a metric line waits
// for the log line that follows it, and both go out in one write, so a
// kill between the count and the log cannot leave a metric without the
// delivery it counted.
type childOut struct {
	mu      sync.Mutex
	pending []byte
}

func (o *childOut) metric(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, line...)
}

// Write writes p, a log line, after the metric lines waiting for it.
func (o *childOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	buf := append(o.pending, p...)
	o.pending = nil
	if _, err := os.Stdout.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// child is one run of deliverAll.
type child struct {
	cmd      *exec.Cmd
	done     chan struct{}
	started  chan struct{} // closed when it says STARTED: its worker runs
	mu       sync.Mutex
	ok       bool              // it said DONE
	kept     map[string]string // deliveries it found in doubt → platform
	notBegun map[string]string // deliveries it found claimed but not begun → platform
	metrics  map[string]int    // what lineMetrics wrote
}

// found counts the deliveries of platform in m.
func found(m map[string]string, platform string) int {
	n := 0
	for _, p := range m {
		if p == platform {
			n++
		}
	}
	return n
}

func startChild(t *testing.T, h *harness) *child {
	t.Helper()
	c := &child{done: make(chan struct{}), started: make(chan struct{}), kept: map[string]string{}, notBegun: map[string]string{}, metrics: map[string]int{}}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), childDB+"="+h.path, childURL+"="+h.srv.URL, childUnit+"="+h.spec.unit.String())
	c.cmd.Stderr = os.Stderr
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var line struct {
				Delivery string `json:"delivery"`
				Platform string `json:"platform"`
				Message  string `json:"message"`
				Metric   string `json:"metric"`
			}
			c.mu.Lock()
			switch {
			case sc.Text() == "STARTED":
				close(c.started)
			case sc.Text() == "DONE":
				c.ok = true
			case json.Unmarshal(sc.Bytes(), &line) != nil:
			case line.Metric != "":
				c.metrics[line.Metric]++
			case strings.Contains(line.Message, "in doubt after a restart"):
				c.kept[line.Delivery] = line.Platform
			case strings.Contains(line.Message, "not begun before a restart"):
				c.notBegun[line.Delivery] = line.Platform
			}
			c.mu.Unlock()
		}
	}()
	return c
}

// TestCrashDuringFanOut kills the bot (a child process) with SIGKILL at
// random points of a fan-out to 1,000 channels, 20 times, restarting it
// each time, and checks the promises: no delivery lost, no Discord
// duplicate (nonce), at most one Slack delivery in doubt per restart
// however many the Slack lane had claimed, the metrics of each restart
// equal to what it found in doubt, every Slack duplicate traced to a
// delivery found in doubt (none to one found not begun), every gone
// channel paused, and a clean bbolt check after every kill.
func TestCrashDuringFanOut(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a child process 20 times; run without -short")
	}
	unit := 10 * time.Millisecond
	h := newHarness(t, fanoutSpec{slack: 800, discord: 200, workspaces: 4, goneEvery: 100, unit: unit}, 11)
	// Under the fake's lock: the posts come from child processes, so
	// nothing else orders this write before the handlers' reads.
	h.fake.mu.Lock()
	h.fake.rateLimited, h.fake.serverError = 0.20, 0.02
	h.fake.mu.Unlock()
	h.db.Close() // the children own the file now

	rnd := rand.New(rand.NewPCG(5, 6))
	inDoubt := map[string]int{} // delivery → restarts that found it in doubt
	kills := 0
	var runs []*child
	var last *child
	for kills < 20 {
		c := startChild(t, h)
		// Kill it at a random point of its fan-out, counted from when its
		// worker starts, so that a slow start (-race, a busy machine)
		// does not move every kill before the first post; one kill in
		// five comes while it may still be queueing the digests.
		if rnd.IntN(5) != 0 {
			select {
			case <-c.done:
			case <-c.started:
			}
		}
		select {
		case <-c.done:
		case <-time.After(time.Duration(rnd.IntN(400)) * time.Millisecond):
			_ = c.cmd.Process.Signal(syscall.SIGKILL)
			kills++
			<-c.done
		}
		_ = c.cmd.Wait()
		runs = append(runs, c)
		checkFile(t, h.path)
		if c.ok {
			last = c
			break
		}
	}
	if last == nil {
		last = startChild(t, h)
		select {
		case <-last.done:
		case <-time.After(2 * time.Minute):
			_ = last.cmd.Process.Kill()
			t.Fatal("the last run did not finish in 2 minutes")
		}
		_ = last.cmd.Wait()
		runs = append(runs, last)
	}
	// What each start found: the deliveries the crash before it left
	// sending, in doubt or not begun, and what its metrics counted.
	var leftSending, slackInDoubt, metricDups []int
	notBegunSlack := 0
	for i, c := range runs {
		for k := range c.kept {
			inDoubt[k]++
		}
		slack, discord := found(c.kept, "slack"), found(c.kept, "discord")
		leftSending = append(leftSending, slack+found(c.notBegun, "slack"))
		slackInDoubt = append(slackInDoubt, slack)
		metricDups = append(metricDups, c.metrics["duplicate_possible/slack/restart"])
		notBegunSlack += found(c.notBegun, "slack")
		if slack > 1 {
			t.Errorf("start %d found %d Slack deliveries in doubt, want at most 1: %v", i, slack, c.kept)
		}
		want := map[string]int{"duplicate_possible/slack/restart": slack, "in_doubt/slack": slack, "in_doubt/discord": discord}
		for k, v := range want {
			if c.metrics[k] != v {
				t.Errorf("start %d: metric %s = %d, want %d (the deliveries it found in doubt)", i, k, c.metrics[k], v)
			}
		}
		if n := c.metrics["duplicate_possible/discord/restart"]; n != 0 {
			t.Errorf("start %d counted %d possible Discord duplicates; the nonce makes none", i, n)
		}
	}
	left := 0
	for _, n := range leftSending {
		left += n
	}
	if left == 0 {
		t.Error("no start found a Slack delivery left sending: the kills no longer land in the fan-out")
	}
	if !last.ok {
		t.Fatal("the last run did not finish its deliveries")
	}
	if kills < 20 {
		t.Fatalf("the fan-out finished after %d kills; make it longer", kills)
	}
	checkFile(t, h.path)

	db, err := store.Open(h.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	shown := h.fake.shown()
	slackDups := 0
	for _, ch := range h.channels {
		key := func() string {
			sub, _ := db.Subscriptions().FindSubscriptionByChannel(ctx, ch)
			return digest.DeliveryKey(ch, sub.LastDigestID)
		}
		if code, gone := h.gone[ch.Channel]; gone {
			sub, err := db.Subscriptions().FindSubscriptionByChannel(ctx, ch)
			if err != nil || sub.PausedReason != code || len(shown[ch.Channel]) != 0 {
				t.Errorf("gone channel %s: %+v, %v, shown %v", ch.Channel, sub, err, shown[ch.Channel])
			}
			continue
		}
		got := shown[ch.Channel]
		if len(got) != 1 {
			t.Errorf("channel %s: messages by nonce %v; want one digest", ch.Channel, got)
			continue
		}
		for _, n := range got {
			switch {
			case n == 1:
			case ch.Platform == "discord":
				t.Errorf("discord channel %s shows its digest %d times", ch.Channel, n)
			case n-1 > inDoubt[key()]:
				t.Errorf("slack channel %s shows its digest %d times and was found in doubt %d times", ch.Channel, n, inDoubt[key()])
			default:
				slackDups += n - 1
			}
		}
	}
	if slackDups > kills {
		t.Errorf("%d Slack duplicates after %d kills; want at most one per kill", slackDups, kills)
	}
	counted := 0
	for _, n := range metricDups {
		counted += n
	}
	if slackDups > counted {
		t.Errorf("%d Slack duplicates shown, %d counted as possible after a restart", slackDups, counted)
	}
	t.Logf("%d kills; per start, Slack deliveries left sending %v, of them in doubt %v (the rest, %d, not begun), possible duplicates counted %v; %d Slack duplicates shown; %d requests inside a window or over a limit (the limiter's memory dies with the process)",
		kills, leftSending, slackInDoubt, notBegunSlack, metricDups, slackDups, len(h.fake.violations)+len(h.fake.overruns))
}
