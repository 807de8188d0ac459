{{/*
Labels of every object: those of the kustomize base (deploy/k8s/base), which selectors use,
then Helm's own, which no selector uses (a release can change them).
*/}}
{{- define "relay.labels" -}}
{{- $labels := dict "app.kubernetes.io/part-of" "relay" -}}
{{- with .component }}{{ $_ := set $labels "app.kubernetes.io/component" . }}{{ end -}}
{{- with .name }}{{ $_ := set $labels "app.kubernetes.io/name" . }}{{ end -}}
{{- toYaml $labels }}
{{ include "relay.helmLabels" .root }}
{{- end }}

{{- define "relay.helmLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "relay.selector" -}}
app.kubernetes.io/name: {{ . }}
app.kubernetes.io/part-of: relay
{{- end }}

{{/* Whether a service's replica count belongs to an autoscaler (its HPA, or KEDA's). */}}
{{- define "relay.autoscaled" -}}
{{- if or .s.hpa (and .root.Values.keda.enabled .s.keda) }}true{{ end }}
{{- end }}
