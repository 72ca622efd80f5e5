import { LegalPage } from './LegalPage';
import { termsOfServiceSections } from './terms-of-service-sections';

export function TermsOfServicePage() {
  return <LegalPage title="Terms of service" sections={termsOfServiceSections} />;
}
