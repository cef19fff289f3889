// Package replayetcd holds the tests and the benchmark of the Slack
// adapter on replicas that share their replay guard in etcd
// (etcdstore.ReplayGuard), against an embedded etcd. They live apart from
// package slack's own so that its test binary, whose slash benchmarks are
// tracked, does not link the etcd server. It has no code of its own.
//
// It imports no package of the module.
package replayetcd
