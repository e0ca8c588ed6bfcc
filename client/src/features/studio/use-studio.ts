import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CheckResultSchema,
  DiffSchema,
  ExperimentsSchema,
  HistorySchema,
  AuditSchema,
  PreviewLinkMadeSchema,
  PreviewLinkRevokedSchema,
  PreviewLinksSchema,
  PublishedSchema,
  ScheduledSchema,
  SchedulesSchema,
  StudioStateSchema,
  VersionDetailSchema,
  type PreviewLinkBody,
  type StudioStateView,
} from '../../../../shared/schemas/studio.js';
import { ExperimentListSchema, ExperimentResultsSchema } from '../../../../shared/schemas/experiment-results.js';
import { RowResultsSchema } from '../../../../shared/schemas/row-results.js';
import { rowResultsQuery, type ResultRange } from './row-results.js';
import { filePath, studioApi } from './studio-api.js';

export const STATE_KEY = ['studio', 'state'] as const;
const ROW_RESULTS = 'row-results';

/** The drafts, their problems, the live version and what can be previewed. */
export function useStudioState() {
  return useQuery({
    queryKey: STATE_KEY,
    queryFn: ({ signal }) => studioApi('state', StudioStateSchema, { signal }),
    retry: false,
  });
}

/**
 * Whatever changes the drafts or the live set makes every studio answer stale: they are all cheap to ask again.
 * Row results are not: they are read from the events shoppers made, which no draft or publish changes.
 */
function useRefresh() {
  const client = useQueryClient();
  return (state?: StudioStateView) => {
    if (state) client.setQueryData(STATE_KEY, state);
    void client.invalidateQueries({
      queryKey: ['studio'],
      predicate: (q) => (!state || q.queryKey[1] !== 'state') && q.queryKey[1] !== ROW_RESULTS,
    });
  };
}

export function useSaveDraft() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ path, text }: { path: string; text: string }) =>
      studioApi(filePath(path), StudioStateSchema, { method: 'PUT', body: { text } }),
    onSuccess: (state) => refresh(state),
  });
}

/** The problems a file's text would give, without saving it. */
export const checkDraft = async (path: string, text: string) =>
  (await studioApi('check', CheckResultSchema, { method: 'POST', body: { path, text } })).problems;

export function useDiscardDrafts() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => studioApi('discard', StudioStateSchema, { method: 'POST' }),
    onSuccess: (state) => refresh(state),
  });
}

export function useDraftDiff() {
  return useQuery({ queryKey: ['studio', 'diff'], queryFn: ({ signal }) => studioApi('diff', DiffSchema, { signal }) });
}

export function usePublish() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { note: string; brand?: string }) =>
      studioApi('publish', PublishedSchema, { method: 'POST', body: input }),
    onSuccess: () => refresh(),
  });
}

/** RULES 18.2: the drafts (one brand's) to be published at a time. */
export function useSchedule() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { note: string; at: string; brand?: string }) =>
      studioApi('schedules', ScheduledSchema, { method: 'POST', body: input }),
    onSuccess: () => refresh(),
  });
}

export function useSchedules() {
  return useQuery({
    queryKey: ['studio', 'schedules'],
    queryFn: ({ signal }) => studioApi('schedules', SchedulesSchema, { signal }),
    // A scheduled version is published on its own: its outcome shows without a reload.
    refetchInterval: 5_000,
  });
}

export function useUnschedule() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => studioApi(`schedules/${id}`, ScheduledSchema, { method: 'DELETE' }),
    onSuccess: () => refresh(),
  });
}

/** RULES 18.5: who did what, newest first. */
export function useAudit() {
  return useQuery({
    queryKey: ['studio', 'audit'],
    queryFn: ({ signal }) => studioApi('audit', AuditSchema, { signal }),
  });
}

export function useHistory() {
  return useQuery({
    queryKey: ['studio', 'versions'],
    queryFn: ({ signal }) => studioApi('versions', HistorySchema, { signal }),
  });
}

export function useVersion(n: number | null) {
  return useQuery({
    queryKey: ['studio', 'version', n],
    queryFn: ({ signal }) => studioApi(`versions/${n}`, VersionDetailSchema, { signal }),
    enabled: n !== null,
  });
}

export function useRestore() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ version }: { version: number }) =>
      studioApi(`versions/${version}/restore`, PublishedSchema, { method: 'POST', body: {} }),
    onSuccess: () => refresh(),
  });
}

export function useExperiments(brand: string | undefined) {
  return useQuery({
    queryKey: ['studio', 'experiments', brand],
    queryFn: ({ signal }) =>
      studioApi(`experiments?brand=${encodeURIComponent(brand!)}`, ExperimentsSchema, { signal }),
    enabled: brand !== undefined,
  });
}

/** Every experiment the flags define, for the results panel. */
export function useExperimentList() {
  return useQuery({
    queryKey: ['studio', 'experiment-list'],
    queryFn: ({ signal }) => studioApi('experiments/results', ExperimentListSchema, { signal }),
  });
}

/** RULES 17.5: one experiment's results since a day (all of them without one). */
export function useExperimentResults(key: string | undefined, since: string) {
  return useQuery({
    queryKey: ['studio', 'experiment-results', key, since],
    queryFn: ({ signal }) =>
      studioApi(
        `experiments/${encodeURIComponent(key!)}/results${since ? `?since=${encodeURIComponent(since)}` : ''}`,
        ExperimentResultsSchema,
        { signal },
      ),
    enabled: key !== undefined,
  });
}

/** RULES 18.1: a brand's page's row results over a range (the preview's badges and the row results table). */
export function useRowResults(brand: string, page: string, range: ResultRange) {
  const query = rowResultsQuery(brand, page, range);
  return useQuery({
    queryKey: ['studio', ROW_RESULTS, query],
    queryFn: ({ signal }) => studioApi(`rows?${query}`, RowResultsSchema, { signal }),
    retry: false,
  });
}

const LINKS_KEY = ['studio', 'preview-links'] as const;

/** RULES 18.3: the preview links of a brand, newest first. */
export function usePreviewLinks(brand: string) {
  return useQuery({
    queryKey: [...LINKS_KEY, brand],
    queryFn: ({ signal }) =>
      studioApi(`preview-links?brand=${encodeURIComponent(brand)}`, PreviewLinksSchema, { signal }),
  });
}

/** Makes a preview link; the lists of links are read again. */
export function useMakePreviewLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PreviewLinkBody) => studioApi('preview-links', PreviewLinkMadeSchema, { method: 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: LINKS_KEY }),
  });
}

export function useRevokePreviewLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      studioApi(`preview-links/${encodeURIComponent(id)}`, PreviewLinkRevokedSchema, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: LINKS_KEY }),
  });
}
