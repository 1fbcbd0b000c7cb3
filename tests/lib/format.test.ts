import { describe, expect, it } from 'vitest';
import {
  formatDistance,
  formatDuration,
  formatMileage,
  formatNumber,
  formatTimeDifference,
  formatWithUnit,
  quantityText,
} from '../../src/lib/format';

describe('formatNumber', () => {
  it('shows two decimals in pt-BR', () => {
    expect(formatNumber(1234.5)).toBe('1.234,50');
    expect(formatNumber('7')).toBe('7,00');
    expect(formatNumber(-0.456)).toBe('-0,46');
  });
  it('shows 0 when empty', () => {
    expect(formatNumber(null)).toBe('0');
    expect(formatNumber(undefined)).toBe('0');
    expect(formatNumber('')).toBe('0');
    expect(formatNumber('abc')).toBe('0');
  });
});

describe('formatWithUnit', () => {
  it('joins the value and the unit', () => {
    expect(formatWithUnit(80, 'km/h')).toBe('80,00 km/h');
  });
  it("shows '-' when empty", () => {
    expect(formatWithUnit(null, 'V')).toBe('-');
    expect(formatWithUnit('', 'V')).toBe('-');
  });
});

describe('formatDuration and formatTimeDifference', () => {
  it('uses seconds under a minute', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(42.9)).toBe('42 s');
  });
  it("uses 'm:ss s' under an hour", () => {
    expect(formatDuration(65)).toBe('1:05 s');
    expect(formatDuration(3599)).toBe('59:59 s');
  });
  it("uses 'h:mm m' from an hour on", () => {
    expect(formatDuration(3600)).toBe('1:00 m');
    expect(formatDuration(26 * 3600 + 7 * 60 + 30)).toBe('26:07 m');
  });
  it('measures between two instants in either order', () => {
    expect(formatTimeDifference('2026-01-01T10:00:00Z', '2026-01-01T10:01:05Z')).toBe('1:05 s');
    expect(formatTimeDifference('2026-01-01T12:30:00Z', '2026-01-01T10:00:00Z')).toBe('2:30 m');
  });
});

describe('formatDistance', () => {
  it('puts thousand dots in kilometres and three digits of metres after the comma', () => {
    expect(formatDistance(1234567)).toBe('1.234,567 km');
    expect(formatDistance(5)).toBe('0,005 km');
    expect(formatDistance(1000)).toBe('1,000 km');
    expect(formatDistance(12_345_678.4)).toBe('12.345,678 km');
  });
  it("shows '-' when empty", () => {
    expect(formatDistance(null)).toBe('-');
  });
});

describe('formatMileage', () => {
  it('divides by 1000 with one decimal', () => {
    expect(formatMileage(123456)).toBe('123,5');
    expect(formatMileage(1234567)).toBe('1.234,6');
    expect(formatMileage(0)).toBe('0,0');
  });
});

describe('quantityText', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(quantityText(1, 'veículo', 'veículos')).toBe('1 veículo selecionado');
    expect(quantityText(3, 'veículo', 'veículos')).toBe('3 veículos selecionados');
    expect(quantityText(0, 'veículo', 'veículos')).toBe('0 veículos selecionados');
  });
});
