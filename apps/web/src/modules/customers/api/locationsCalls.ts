import * as locationsApi from '@yado/contracts/locations';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

// Reference lists that change with a release: fetched once per session.
const FOREVER = { staleTime: Infinity, gcTime: Infinity } as const;

export const countriesQuery = () =>
  queryOptions({
    queryKey: ['locations', 'countries'],
    queryFn: ({ signal }) => request(locationsApi.listCountries, { signal }),
    ...FOREVER,
  });

export const prefecturesQuery = (enabled = true) =>
  queryOptions({
    queryKey: ['locations', 'prefectures'],
    queryFn: ({ signal }) => request(locationsApi.listPrefectures, { signal }),
    enabled,
    ...FOREVER,
  });

export const citiesQuery = (prefectureCode: string | null) =>
  queryOptions({
    queryKey: ['locations', 'cities', prefectureCode],
    queryFn: ({ signal }) => request(locationsApi.listCities, { params: { code: prefectureCode ?? '' }, signal }),
    enabled: prefectureCode !== null,
    ...FOREVER,
  });
