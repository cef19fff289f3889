package discord

import (
	"reflect"
	"strings"
	"testing"
)

// TestEnvTagsAreRead: every env tag of Config (which the table of settings
// in docs/configuration.md shows) names a variable ApplyEnv reads into its field; the bot
// token file's variables are the config loader's (cmd/bot/internal/app).
func TestEnvTagsAreRead(t *testing.T) {
	typ := reflect.TypeOf(Config{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		env := f.Tag.Get("env")
		if env == "" || strings.Contains(env, ",") {
			continue
		}
		value := "env-test"
		if f.Type.Kind() == reflect.Bool {
			value = "true"
		}
		var c Config
		if err := c.ApplyEnv(func(k string) string {
			if k == env {
				return value
			}
			return ""
		}); err != nil {
			t.Errorf("%s: %v", env, err)
		}
		if reflect.ValueOf(c).Field(i).IsZero() {
			t.Errorf("%s: %s does not set it", f.Name, env)
		}
	}
}
