package discord

import (
	"reflect"
	"strings"
	"testing"
)

// TestEnvTagsAreRead: every env tag of Config (which the README's table of
// settings shows) names a variable ApplyEnv reads into its field; the bot
// token file's variables are the config loader's (internal/serve).
func TestEnvTagsAreRead(t *testing.T) {
	typ := reflect.TypeOf(Config{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		env := f.Tag.Get("env")
		if env == "" || strings.Contains(env, ",") {
			continue
		}
		var c Config
		c.ApplyEnv(func(k string) string {
			if k == env {
				return "env-test"
			}
			return ""
		})
		if reflect.ValueOf(c).Field(i).IsZero() {
			t.Errorf("%s: %s does not set it", f.Name, env)
		}
	}
}
